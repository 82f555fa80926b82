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
import type { Impact as ImpactDimension, RiskRow } from '../../risk/types.js';
import type { RowId } from '../../risk/model.js';
import { classify } from '../../blueprint/classify.js';
import { isPaymentEvent } from '../../money.js';
import { impactOf } from '../../risk/impact.js';
import { riskRow, rowSeverity } from '../../risk/model.js';
import { hookLabel, interfaceNames } from '../../sources.js';
import { CallerInput, PAYLOAD, STEERED_AI } from './caller-input.js';
import { moduleImpacts } from './impact-detectors.js';

/** What forged input reaches, worst first. */
export type ImpactKind =
  'target' | 'relay' | 'publish' | 'forward' | 'agent' | 'payment' | 'uses' | 'answers' | 'unused';

/**
 * The risk-model row per impact (`risk/model.ts`, issue 32): aiming a write (R5), relaying a message
 * (R6), publishing (R7), forwarding through a credential (R8), instructing an agent (R4) and faking a
 * payment (R9) are high; feeding data the caller cannot aim (R12) or only reading the answer (R12)
 * is medium; a payload nothing reads (R13) is low.
 */
export const IMPACT_ROW: Readonly<Record<ImpactKind, RowId>> = {
  target: 'R5',
  relay: 'R6',
  publish: 'R7',
  forward: 'R8',
  agent: 'R4',
  payment: 'R9',
  uses: 'R12',
  answers: 'R12',
  unused: 'R13',
};

/** What each impact's action does (the model's `Impact` dimension). */
const IMPACT_DIMENSION: Readonly<Record<ImpactKind, ImpactDimension>> = {
  target: 'write-own',
  relay: 'send',
  publish: 'send',
  forward: 'send',
  agent: 'change-access',
  payment: 'spend',
  uses: 'write-own',
  answers: 'read',
  unused: 'read',
};

/** Impact kinds worst first (the order of the reason's clauses). */
const IMPACT_ORDER = Object.keys(IMPACT_ROW) as ImpactKind[];

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

/** The severity of a forged call, what it can do (completes "forged calls can …"), its risk row and the module it acts through. */
export interface Forgery {
  readonly severity: Severity;
  readonly what: string;
  readonly risk: RiskRow;
  /** The module the worst impact acts through (the evidence path's sink); the webhook itself when none. */
  readonly sink: ModuleNode;
}

/** What a forged call to the unverified webhook `trigger` can make the scenario do, worst first. */
export function assessForgery(analysis: Analysis, trigger: ModuleNode): Forgery {
  const input = new CallerInput(analysis, trigger.id);
  const impacts = moduleImpacts(input, analysis.graph.modules, analysis.graph);
  const payment = paymentImpact(analysis, input, trigger);
  if (payment) impacts.push(payment);
  if (impacts.length > 0) {
    const worst = impacts.reduce((a, b) => (IMPACT_ORDER.indexOf(b.kind) < IMPACT_ORDER.indexOf(a.kind) ? b : a));
    return forgery(worst.kind, describeImpacts(impacts), worst.module);
  }
  if (input.payloadPaths().length > 0) {
    const { what, first } = reach(analysis, input, trigger);
    return forgery('uses', what, first ?? trigger);
  }
  const answer = answersCaller(analysis);
  if (answer) return forgery('answers', 'read what the scenario answers, though their payload is never used', answer);
  return forgery('unused', 'only start the scenario: its payload is never used', trigger);
}

function forgery(kind: ImpactKind, what: string, sink: ModuleNode): Forgery {
  const row = IMPACT_ROW[kind];
  // What the module the caller aims does (a delete, an access change), else what the impact kind does.
  const impact = kind === 'target' ? impactOf(sink) : IMPACT_DIMENSION[kind];
  return { severity: rowSeverity(row), what, risk: riskRow(row, { trust: 'public-webhook', impact }), sink };
}

/**
 * The impacts as a phrase completing "forged calls can …": one clause per kind, worst first, naming
 * the first module's details and the ids of the others (`(also modules 36, 7)`).
 */
export function describeImpacts(impacts: readonly Impact[]): string {
  const clauses: string[] = [];
  for (const kind of IMPACT_ORDER) {
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

/** What forged data reaches when the caller cannot aim it (`REACHED`), and the first module it reaches. */
function reach(
  analysis: Analysis,
  input: CallerInput,
  trigger: ModuleNode,
): { what: string; first: ModuleNode | null } {
  const kinds = new Set<string>();
  let first: ModuleNode | null = null;
  for (const m of analysis.graph.modules) {
    if (m === trigger || !input.carries(m) || !input.leaves(m).some((l) => l.origin & (PAYLOAD | STEERED_AI))) continue;
    const kind = REACHED[classify(m).effect];
    if (kind) {
      kinds.add(kind);
      first ??= m;
    }
  }
  return {
    what: `feed forged data into ${kinds.size > 0 ? [...kinds].join(', ') : 'routing and filters'}, but cannot choose what is changed, who receives it, or publish it`,
    first,
  };
}

/** The webhook response that returns data from the scenario (a mapped body), `null` when none. */
function answersCaller(analysis: Analysis): ModuleNode | null {
  return (
    analysis.graph.modules.find((m) => {
      const body = m.mapper?.['body'];
      return classify(m).effect === 'respond' && typeof body === 'string' && body.includes('{{');
    }) ?? null
  );
}
