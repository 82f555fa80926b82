/**
 * @module engine/policies/ai/injection-reach: what the output of a model whose prompt carries
 * untrusted input can make the scenario do (AI-2 severity). Prompt injection (OWASP LLM01:2025)
 * hands the model's output to whoever wrote the input; the harm is what that output can act on
 * (OWASP LLM06:2025 Excessive Agency: functionality, permissions and autonomy downstream of the
 * model). High when it can act: the model is an agent, its output aims a write or a message (SEC-5's
 * detectors, with the model as the caller), reaches a third party or the public (AI-1's audiences),
 * becomes an address the scenario requests (SEC-6), goes into a document sent to a third party, or
 * decides through a filter whether money moves, data is deleted, a post is published or an agent
 * runs. Medium when it only answers the person who wrote, reaches the team, is stored for people to
 * read, or feeds look-ups, computations and routing. Low when no later module uses it. Each reach
 * is a row of the risk model (`risk/model.ts`, issue 32) and the audiences are `risk/audience.ts`'s.
 * Acceptance set: the issue 14 review of every AI-2 finding on both corpora (docs/engine.md, "AI-2
 * severity").
 */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode, ScenarioGraph } from '../../blueprint/types.js';
import type { Severity } from '../../severity.js';
import type { Audience, RiskRow } from '../../risk/types.js';
import type { ImpactKind } from '../sec/forged-impact.js';
import type { RowId } from '../../risk/model.js';
import { classify } from '../../blueprint/classify.js';
import { movesMoney } from '../../money.js';
import { downstreamOf } from '../helpers.js';
import { CallerInput, LOOKUP, PAYLOAD, STEERED_AI } from '../sec/caller-input.js';
import { credentialOf, isAgent, isTargetKey, moduleImpacts } from '../sec/impact-detectors.js';
import { hostRefs, modelAuthors } from '../sec/request-url.js';
import { audienceOf } from '../../risk/audience.js';
import { impactOf } from '../../risk/impact.js';
import { riskRow, rowSeverity } from '../../risk/model.js';
import { isOutput } from './review.js';

/** What the injected output reaches, worst first (the order of the reason's clauses). */
export type ReachKind =
  | 'agent'
  | 'aims'
  | 'request'
  | 'deliver'
  | 'document'
  | 'decide'
  | 'answer'
  | 'internal'
  | 'store'
  | 'use'
  | 'route'
  | 'unused';

/** Reaches worst first: the order of the reason's clauses and of the choice of the worst reach. */
const REACH_ORDER: readonly ReachKind[] = [
  'agent',
  'aims',
  'request',
  'deliver',
  'document',
  'decide',
  'answer',
  'internal',
  'store',
  'use',
  'route',
  'unused',
];

/** Reach of a delivery by its audience (`risk/audience.ts`): outsiders act on what they receive; the sender and the team read it. */
const BY_AUDIENCE: Readonly<Record<Audience, ReachKind>> = {
  public: 'deliver',
  'third-party': 'deliver',
  sender: 'answer',
  owner: 'internal',
};

/** The risk-model row of a reach (`risk/model.ts`); `deliver` to the public is R7, the rest R11. */
const REACH_ROW: Readonly<Record<ReachKind, RowId>> = {
  agent: 'R4',
  aims: 'R5',
  request: 'R8',
  deliver: 'R11',
  document: 'R11',
  decide: 'R10',
  answer: 'R12',
  internal: 'R12',
  store: 'R12',
  use: 'R12',
  route: 'R12',
  unused: 'R13',
};

/** The row of an impact SEC-5's detectors find with the model as the caller. */
const IMPACT_ROW: Partial<Readonly<Record<ImpactKind, RowId>>> = {
  target: 'R5',
  relay: 'R6',
  publish: 'R7',
  forward: 'R8',
  agent: 'R4',
};

/**
 * Effects a filter on the output may switch on that are high by themselves, whoever chose the data
 * they carry: money moving (`money.ts`), a permanent delete, a publication, an agent run, a call to
 * an API with a credential (its effect is not visible in the blueprint). A gated templated reply, a
 * row or an internal notification is not: the sender could trigger it by writing in anyway.
 */
const DECISIONS: readonly (readonly [string, (m: ModuleNode, graph: ScenarioGraph) => boolean])[] = [
  ['moves money', movesMoney],
  ['runs its AI agent', isAgent],
  ['deletes data permanently', (m) => classify(m).effect === 'delete' && !classify(m).reversible],
  ['publishes a post', (m) => classify(m).send?.channel === 'post'],
  [
    'calls an API with a credential',
    (m) => classify(m).effect === 'write' && classify(m).http && credentialOf(m) !== null,
  ],
];

/** What the injected output reaches through one module (`what` completes "its output …: …"). */
interface Reach {
  readonly kind: ReachKind;
  readonly module: ModuleNode;
  readonly what: string;
  /** The risk-model row it sets (`REACH_ROW`, or finer for deliveries and SEC-5's impacts). */
  readonly row: RowId;
  readonly audience?: Audience;
}

/** The severity of an AI-2 finding, why (completes "…; "), the risk-model row and the module the worst reach ends in. */
export interface InjectionReach {
  readonly severity: Severity;
  readonly why: string;
  readonly risk: RiskRow;
  /** The module the worst reach ends in (the evidence path's sink); the model itself when nothing uses it. */
  readonly sink: ModuleNode;
}

const ref = (m: ModuleNode) => `module ${m.id} (\`${m.type}\`)`;
/** Module kinds that only pass values on (`classify().effect`). */
const PASS_THROUGH: ReadonlySet<string> = new Set(['transform', 'flow', 'directive']);
/** Text the injected model writes, or a later model it steers. */
const WRITTEN = PAYLOAD | STEERED_AI;

/** What the output of the injected AI module `ai` can make the scenario do. */
export function assessInjection(analysis: Analysis, ai: ModuleNode): InjectionReach {
  const output = new CallerInput(analysis, ai.id);
  const reaches: Reach[] = [];
  if (isAgent(ai, analysis.graph))
    reaches.push({
      kind: 'agent',
      module: ai,
      what: 'the model is an AI agent, which acts with the tools configured on it',
      row: 'R4',
    });
  for (const i of moduleImpacts(output, analysis.graph.modules, analysis.graph)) {
    reaches.push({
      kind: i.kind === 'agent' ? 'agent' : 'aims',
      module: i.module,
      what: `whoever writes the input can ${i.what}`,
      row: IMPACT_ROW[i.kind] ?? 'R5',
    });
  }
  for (const m of analysis.graph.modules) {
    if (m === ai) continue;
    const reach = moduleReach(analysis, output, ai, m);
    if (reach) reaches.push(reach);
  }
  reaches.push(...decisions(analysis, output));
  if (reaches.length === 0)
    return {
      severity: rowSeverity('R13'),
      why: 'its output is not used by any later module',
      risk: riskRow('R13', { impact: 'read' }),
      sink: ai,
    };
  const worst = reaches.reduce((a, b) => (rank(b.kind) < rank(a.kind) ? b : a));
  const severity = rowSeverity(worst.row);
  const clauses = describe(reaches.filter((r) => rowSeverity(r.row) === severity));
  // What the module the worst reach ends in does; an agent's tools are not in the blueprint.
  const impact = worst.row === 'R4' ? undefined : impactOf(worst.module);
  return {
    severity,
    why: `${severity === 'high' ? 'its output can act' : 'its output cannot act'}: ${clauses}`,
    risk: riskRow(worst.row, {
      ...(worst.audience ? { audience: worst.audience } : {}),
      ...(impact ? { impact } : {}),
    }),
    sink: worst.module,
  };
}

/** How the output reaches module `m` through its mapped values (the values that carry it), or `null`. */
function moduleReach(analysis: Analysis, output: CallerInput, ai: ModuleNode, m: ModuleNode): Reach | null {
  if (!output.carries(m)) return null;
  // `{{2.error.message}}` in an error route is the failure of module 2, not its output.
  const carried = output
    .leaves(m)
    .filter((l) => l.origin !== 0 && !l.refs.every((r) => r.moduleId === ai.id && !isOutput(r.path)));
  const effect = classify(m).effect;
  // Transforms and flow modules pass the output on; the modules they feed are judged instead.
  if (carried.length === 0 || PASS_THROUGH.has(effect)) return null;
  if (requestsWrittenHost(analysis, output, ai, m))
    return { kind: 'request', module: m, what: `${ref(m)} requests an address the model writes (SEC-6)`, row: 'R8' };
  const origin = carried.reduce((o, l) => o | l.origin, 0);
  // Only records a look-up on the output selected, reaching `m` as another model's answer: that model
  // reads the owner's data the output picked, and its own prompt is judged by its own AI-2 finding.
  if (
    origin === LOOKUP &&
    carried.every((l) =>
      l.refs.every((r) => r.moduleId !== ai.id && classify(analysis.graph.byId.get(r.moduleId) ?? m).ai),
    )
  ) {
    return {
      kind: 'use',
      module: m,
      what: `${ref(m)} gets only the answer of another model that reads records a look-up on it selects`,
      row: 'R12',
    };
  }
  const via =
    origin & PAYLOAD
      ? ''
      : origin & STEERED_AI
        ? ' (as the answer of a model it steers)'
        : ' (as data a look-up on it selects)';
  const delivery = audienceOf(analysis, m);
  if (delivery) {
    const kind = BY_AUDIENCE[delivery.audience];
    return {
      kind,
      module: m,
      what: `${ref(m)} ${delivery.why}${via}`,
      row: delivery.audience === 'public' ? 'R7' : REACH_ROW[kind],
      audience: delivery.audience,
    };
  }
  if (effect !== 'write' && effect !== 'delete')
    return { kind: 'use', module: m, what: `${ref(m)} uses it to look up or compute${via}`, row: 'R12' };
  const sent = origin & WRITTEN ? sentDocument(analysis, output, m) : null;
  if (sent)
    return {
      kind: 'document',
      module: m,
      what: `${ref(m)} writes it into a document that ${sent}${via}`,
      row: 'R11',
      audience: 'third-party',
    };
  return { kind: 'store', module: m, what: `${ref(m)} stores it for people to read${via}`, row: 'R12' };
}

/** True when the host or whole URL of HTTP module `m` is text the injected model (or a model it steers) writes (SEC-6). */
function requestsWrittenHost(analysis: Analysis, output: CallerInput, ai: ModuleNode, m: ModuleNode): boolean {
  const df = analysis.dataflow();
  return hostRefs(m).some((r) =>
    modelAuthors(analysis, df, r).some(
      (id) => id === ai.id || (output.origin({ moduleId: id, path: '' }) & STEERED_AI) !== 0,
    ),
  );
}

/**
 * A client-facing document: write `m` puts the output into a file or record (its target fields, or
 * `m` itself) that a later delivery sends to a third party or publishes (make `j-ride-lux-ai-proposal-
 * generator`: the proposal text goes into the copied Google Doc whose link is e-mailed to the
 * client). Returns the delivery's description, or `null`.
 */
function sentDocument(analysis: Analysis, output: CallerInput, m: ModuleNode): string | null {
  const objects = new Set([m.id]);
  for (const l of output.leaves(m)) if (isTargetKey(l.key)) for (const r of l.refs) objects.add(r.moduleId);
  const df = analysis.dataflow();
  for (const s of analysis.graph.modules) {
    if (s === m || classify(s).effect !== 'send' || !df.refsOf(s.id).some((r) => objects.has(r.moduleId))) continue;
    const delivery = audienceOf(analysis, s);
    // "sends it by e-mail to …": here the thing sent is the document.
    if (delivery && BY_AUDIENCE[delivery.audience] === 'deliver')
      return `${ref(s)} ${delivery.why.replace(/^(\w+) it /, '$1 ')}`;
  }
  return null;
}

/** Filters on the output (directly or through transforms) that decide whether a high effect runs (`DECISIONS`). */
function decisions(analysis: Analysis, output: CallerInput): Reach[] {
  const out: Reach[] = [];
  const df = analysis.dataflow();
  for (const g of analysis.graph.modules) {
    if (!df.filterRefsOf(g.id).some((r) => output.origin(r) & WRITTEN)) continue;
    let hit: Reach | null = null;
    for (const y of [g, ...downstreamOf(g, analysis)]) {
      const label = DECISIONS.find(([, is]) => is(y, analysis.graph))?.[0];
      if (label) {
        hit = {
          kind: 'decide',
          module: y,
          what: `a filter on its output (module ${g.id}) decides whether ${ref(y)} ${label}`,
          row: 'R10',
        };
        break;
      }
    }
    out.push(
      hit ?? {
        kind: 'route',
        module: g,
        what: `a filter on module ${g.id} decides on it whether that route runs`,
        row: 'R12',
      },
    );
  }
  return out;
}

function rank(kind: ReachKind): number {
  return REACH_ORDER.indexOf(kind);
}

/** One clause per kind, worst first, naming the first module's details and the ids of the others (`(also modules 36, 7)`). */
function describe(reaches: readonly Reach[]): string {
  const clauses: string[] = [];
  for (const kind of REACH_ORDER) {
    const of = reaches.filter((r) => r.kind === kind);
    if (of.length === 0) continue;
    const others = [...new Set(of.slice(1).map((r) => r.module.id))].filter((id) => id !== of[0]!.module.id);
    clauses.push(
      others.length === 0
        ? of[0]!.what
        : `${of[0]!.what} (also module${others.length === 1 ? '' : 's'} ${others.join(', ')})`,
    );
  }
  return clauses.join('; ');
}
