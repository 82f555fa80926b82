/**
 * @module engine/policies/sec/forged-impact: what a forged call to an unverified webhook can make
 * the scenario do (SEC-5 severity). High when the caller can aim the scenario: choose what it
 * changes, relay a message in the organisation's name, publish, push data through a credential
 * another system trusts, instruct an AI agent, or fake a payment; medium when the caller can only
 * add junk to the owner's own systems, trigger internal notifications or templated replies, run
 * AI calls or read an answer; low when the payload is never used. Acceptance set: the issue 14
 * reviewer's verdicts on the 21 webhook findings of both corpora (docs/engine.md, SEC-5). The
 * per-module detectors are in `impact-detectors.ts`; this file adds the scenario-level ones.
 */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { ModuleKind } from '../../blueprint/classify.js';
import type { Severity } from '../../severity.js';
import { classify } from '../../blueprint/classify.js';
import { isPaymentEvent } from '../../money.js';
import { SEVERITY_RANK } from '../../severity.js';
import { hookLabel, interfaceNames } from '../../sources.js';
import { CallerInput, PAYLOAD, STEERED_AI } from './caller-input.js';
import { moduleImpacts } from './impact-detectors.js';

/** What forged input reaches, worst first. */
export type ImpactKind =
  'target' | 'relay' | 'publish' | 'forward' | 'agent' | 'payment' | 'uses' | 'answers' | 'unused';

/** Severity per impact (issue 14: "from what forged input can make the scenario DO"). */
export const IMPACT_SEVERITY: Readonly<Record<ImpactKind, Severity>> = {
  target: 'high',
  relay: 'high',
  publish: 'high',
  forward: 'high',
  agent: 'high',
  payment: 'high',
  uses: 'medium',
  answers: 'medium',
  unused: 'low',
};

/** One impact found on one module. */
export interface Impact {
  readonly kind: ImpactKind;
  readonly module: ModuleNode;
  /** Completes "forged calls can …". */
  readonly what: string;
}

/** How many modules a payment clause names. */
const PAYMENT_MODULES = 4;

/** How forged data that cannot aim anything is described, per kind of module it reaches. */
const REACHED: Partial<Readonly<Record<ModuleKind, string>>> = {
  compute: 'AI calls',
  send: 'messages to fixed or submitted recipients',
  write: "records in the owner's systems",
  delete: "records in the owner's systems",
  respond: 'the answer to the caller',
  read: 'look-ups',
};

/** The severity of a forged call and what it can do (completes "forged calls can …"). */
export interface Forgery {
  readonly severity: Severity;
  readonly what: string;
}

/** What a forged call to the unverified webhook `trigger` can make the scenario do, worst first. */
export function assessForgery(analysis: Analysis, trigger: ModuleNode): Forgery {
  const input = new CallerInput(analysis, trigger.id);
  const impacts = moduleImpacts(input, analysis.graph.modules);
  const payment = paymentImpact(analysis, input, trigger);
  if (payment) impacts.push(payment);
  if (impacts.length > 0) {
    const worst = impacts.reduce((a, b) =>
      SEVERITY_RANK[IMPACT_SEVERITY[b.kind]] > SEVERITY_RANK[IMPACT_SEVERITY[a.kind]] ? b : a,
    );
    return { severity: IMPACT_SEVERITY[worst.kind], what: describeImpacts(impacts) };
  }
  if (input.payloadPaths().length > 0) return { severity: IMPACT_SEVERITY.uses, what: reach(analysis, input, trigger) };
  if (answersCaller(analysis))
    return {
      severity: IMPACT_SEVERITY.answers,
      what: 'read what the scenario answers, though their payload is never used',
    };
  return { severity: IMPACT_SEVERITY.unused, what: 'only start the scenario: its payload is never used' };
}

/**
 * The impacts as a phrase completing "forged calls can …": one clause per kind, worst first, naming
 * the first module's details and the ids of the others (`(also modules 36, 7)`).
 */
export function describeImpacts(impacts: readonly Impact[]): string {
  const kinds = Object.keys(IMPACT_SEVERITY) as ImpactKind[];
  const clauses: string[] = [];
  for (const kind of kinds) {
    const of = impacts.filter((i) => i.kind === kind);
    if (of.length === 0) continue;
    const others = [...new Set(of.slice(1).map((i) => i.module.id))].filter((id) => id !== of[0]!.module.id);
    clauses.push(
      others.length === 0
        ? of[0]!.what
        : `${of[0]!.what} (also module${others.length === 1 ? '' : 's'} ${others.join(', ')})`,
    );
  }
  return clauses.join('; ');
}

/**
 * A payment or order event (`money.ts`: the hook label, or payment-named payload fields) that the
 * scenario records or delivers from: a forged event becomes a paid invoice or a delivered product.
 */
function paymentImpact(analysis: Analysis, input: CallerInput, trigger: ModuleNode): Impact | null {
  if (
    !isPaymentEvent(`${hookLabel(trigger)} ${trigger.label ?? ''}`, [
      ...input.payloadPaths(),
      ...interfaceNames(trigger),
    ])
  )
    return null;
  const acts = analysis.graph.modules.filter((m) => {
    const effect = classify(m).effect;
    return (
      (effect === 'write' || effect === 'send') && input.carries(m) && input.leaves(m).some((l) => l.origin & PAYLOAD)
    );
  });
  if (acts.length === 0) return null;
  const one = acts.length === 1;
  const ids = one
    ? `module ${acts[0]!.id}`
    : `modules ${acts
        .slice(0, PAYMENT_MODULES)
        .map((m) => m.id)
        .join(', ')}${acts.length > PAYMENT_MODULES ? ` and ${acts.length - PAYMENT_MODULES} more` : ''}`;
  return {
    kind: 'payment',
    module: acts[0]!,
    what: `fake a payment or order event that ${ids} record${one ? 's' : ''} or deliver${one ? 's' : ''} as real`,
  };
}

/** What forged data reaches when the caller cannot aim it (`REACHED`). */
function reach(analysis: Analysis, input: CallerInput, trigger: ModuleNode): string {
  const kinds = new Set<string>();
  for (const m of analysis.graph.modules) {
    if (m === trigger || !input.carries(m) || !input.leaves(m).some((l) => l.origin & (PAYLOAD | STEERED_AI))) continue;
    const kind = REACHED[classify(m).effect];
    if (kind) kinds.add(kind);
  }
  return `feed forged data into ${kinds.size > 0 ? [...kinds].join(', ') : 'routing and filters'}, but cannot choose what is changed, who receives it, or publish it`;
}

/** True when a webhook response returns data from the scenario (a mapped body). */
function answersCaller(analysis: Analysis): boolean {
  return analysis.graph.modules.some((m) => {
    const body = m.mapper?.['body'];
    return classify(m).effect === 'respond' && typeof body === 'string' && body.includes('{{');
  });
}
