/**
 * @module engine/policies/sec/source-trust: how far a mapped value can be trusted, from the module
 * its reference reads (issue 32 risk model, "source trust"), and which module the value comes from,
 * for the evidence path. Untrusted sources are `sources.ts`'s; AI output is `DataFlow.isAiDerived`.
 */
import type { FieldRef } from '../../blueprint/expressions.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { DataFlow } from '../../dataflow.js';
import type { SourceTrust } from '../../risk/types.js';
import { classify } from '../../blueprint/classify.js';
import { TRUST_ORDER, trustOfSource } from '../../risk/trust.js';

export { TRUST_ORDER };

/** Where one reference's value comes from: its trust, the module it originates in (`null` for constants) and a phrase for reasons. */
export interface RefTrust {
  readonly trust: SourceTrust;
  readonly origin: string | null;
  /** "a webhook payload (`gateway:CustomWebHook`)", "the output of AI module 4 (`openai-gpt-3:CreateCompletion`)". */
  readonly label: string;
  /**
   * For `ai-output`: the model's prompt maps untrusted input or another model's output, so whoever
   * writes that input can steer the text (indirect prompt injection, OWASP LLM01:2025).
   */
  readonly steered?: boolean;
}

/** Longest chain of transform modules walked back to find an origin. */
const MAX_HOPS = 32;

/**
 * The trust of the value a reference reads. Untrusted when the module (or a transform it reads) is an
 * untrusted source; `ai-output` when it is AI output; `constant` when it is a transform or flow module
 * that maps nothing (a variable set to a literal); otherwise an `internal-record` of the first
 * module, walking back through transforms, that is not one (a sheet row, a CRM record, a database row).
 */
export function trustOfRef(df: DataFlow, byId: ReadonlyMap<string, ModuleNode>, ref: FieldRef): RefTrust {
  const origin = df.untrustedOriginOf(ref.moduleId);
  if (origin !== null) {
    const source = df.sourceOf(origin);
    return {
      trust: source ? trustOfSource(source) : 'public-webhook',
      origin,
      label: source?.label ?? `module ${origin}`,
    };
  }
  if (df.isAiDerived(ref.moduleId)) {
    const ai = walkBack(df, byId, ref.moduleId, (m) => classify(m).ai) ?? ref.moduleId;
    const m = byId.get(ai);
    const steered = aiSteered(df, byId, ai, new Set());
    return {
      trust: 'ai-output',
      origin: ai,
      label: `the output of AI module ${ai}${m ? ` (\`${m.type}\`)` : ''}${steered ? ', whose prompt carries outside input' : ''}`,
      steered,
    };
  }
  const record = walkBack(df, byId, ref.moduleId, (m) => !passesThrough(m));
  if (record === null) {
    return byId.has(ref.moduleId)
      ? { trust: 'constant', origin: null, label: 'a value the author wrote' }
      : { trust: 'internal-record', origin: null, label: `module ${ref.moduleId}` };
  }
  const m = byId.get(record)!;
  return { trust: 'internal-record', origin: record, label: `a record read by module ${record} (\`${m.type}\`)` };
}

/** The worse of two trusts (earlier in `TRUST_ORDER`). */
export function worseTrust(a: SourceTrust, b: SourceTrust): SourceTrust {
  return TRUST_ORDER.indexOf(a) <= TRUST_ORDER.indexOf(b) ? a : b;
}

/**
 * True when AI module `ai`'s prompt maps untrusted input, or the output of a model that is itself
 * steered (a model fed another model's output inherits that model's exposure: second-order
 * injection, issue 32).
 */
function aiSteered(df: DataFlow, byId: ReadonlyMap<string, ModuleNode>, ai: string, seen: Set<string>): boolean {
  if (seen.has(ai) || seen.size > MAX_HOPS) return false;
  seen.add(ai);
  for (const r of df.promptRefsOf(ai)) {
    if (df.isUntrusted(r.moduleId)) return true;
    if (!df.isAiDerived(r.moduleId)) continue;
    const upstream = walkBack(df, byId, r.moduleId, (m) => classify(m).ai);
    if (upstream !== null && aiSteered(df, byId, upstream, seen)) return true;
  }
  return false;
}

function passesThrough(m: ModuleNode): boolean {
  const role = classify(m).role;
  return role === 'transform' || role === 'flow';
}

/** The first module, from `start` back through the transform and flow modules it reads, that `is` accepts; `null` when none. */
function walkBack(
  df: DataFlow,
  byId: ReadonlyMap<string, ModuleNode>,
  start: string,
  is: (m: ModuleNode) => boolean,
): string | null {
  const seen = new Set<string>([start]);
  let frontier = [start];
  for (let hop = 0; hop <= MAX_HOPS && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      const m = byId.get(id);
      if (!m) continue;
      if (is(m)) return id;
      if (!passesThrough(m)) continue;
      for (const r of df.refsOf(id))
        if (!seen.has(r.moduleId)) {
          seen.add(r.moduleId);
          next.push(r.moduleId);
        }
    }
    frontier = next;
  }
  return null;
}
