/**
 * @module engine/risk/model: the risk model of issue 32 ("Severity from one documented risk model,
 * not per-policy heuristics"). Each row is one combination of the four dimensions of `types.ts`
 * (who receives the output, how far the source can be trusted, how sensitive the data is, what the
 * action does) and the severity it sets. AI-1, AI-2, PRIV-1, PRIV-4, PRIV-6, SEC-5 and DI-2 take
 * their severity from a row and put it on the finding (`Finding.risk`), so a reviewer sees which
 * rule decided.
 *
 * The same table is in `docs/engine.md`, section "Risk model (issue 32)", with the sources of each
 * row (GDPR articles, OWASP Top 10 for LLM Applications 2025, EU AI Act, PCI DSS, SOC 2); a unit test
 * keeps the two in step (same ids, severities and policies). Ids are stable and never reused.
 */
import type { Severity } from '../severity.js';
import type { Audience, Impact, RiskRow, Sensitivity, SourceTrust } from './types.js';

/** One row of the model: its id, the one-line statement of its condition, its severity and the policies that use it. */
export interface ModelRow {
  readonly id: RowId;
  readonly title: string;
  readonly severity: Severity;
  readonly policies: readonly string[];
}

/**
 * The rows, by id. Trust "attacker-controlled" is a public webhook, an inbound message (mail, chat,
 * form, ticket), a fetched page, or the output of a model whose prompt carries one of these.
 */
const ROWS = {
  // AI output delivered to people without review (who receives it).
  R1: row('high', ['AI-1'], 'AI output is published (a post, a public page) without a review step'),
  R2: row(
    'high',
    ['AI-1'],
    'AI output is sent to people outside the team (a recipient taken from the data) without a review step',
  ),
  R3: row(
    'low',
    ['AI-1'],
    'AI output only answers the person whose message or submission started the run (a chat or e-mail reply, a webhook response, a mail to the address typed into that submission)',
  ),
  // What attacker-controlled input can make the scenario do.
  R4: row(
    'high',
    ['AI-2', 'SEC-5'],
    'attacker-controlled input instructs an AI agent, which acts with the tools configured on it',
  ),
  R5: row(
    'high',
    ['AI-2', 'SEC-5'],
    'attacker-controlled input chooses what a write or delete changes (a record, file, script or row id)',
  ),
  R6: row(
    'high',
    ['AI-2', 'SEC-5'],
    "attacker-controlled input chooses the recipient of a message whose content it also writes or steers (a relay in the organisation's name)",
  ),
  R7: row('high', ['AI-2', 'SEC-5'], 'attacker-controlled input is published'),
  R8: row(
    'high',
    ['AI-2', 'SEC-5'],
    'attacker-controlled input is pushed into another system with a credential it trusts, or is an address the scenario requests',
  ),
  R9: row(
    'high',
    ['SEC-5'],
    'attacker-controlled input fakes a payment or order event that the scenario records or delivers as real',
  ),
  R10: row(
    'high',
    ['AI-2'],
    'attacker-controlled model output decides through a filter whether money moves, data is deleted for good, a post is published, an agent runs or a credentialed API is called',
  ),
  R11: row(
    'high',
    ['AI-2'],
    'attacker-steered model output is delivered to a third party (a recipient taken from the data), or written into a document a third party is sent',
  ),
  R12: row(
    'medium',
    ['AI-2', 'SEC-5'],
    "attacker-controlled input only reaches the sender, the owner or team, the owner's own records, look-ups or paid calls",
  ),
  R13: row(
    'low',
    ['AI-2', 'SEC-5'],
    'attacker-controlled input is not used by any later module (it can only start a run)',
  ),
  R14: row(
    'low',
    ['SEC-5'],
    'a mail hook receives mail from any sender (its purpose; what the mail can do is judged by AI-2 and the data flow)',
  ),
  // Personal data leaving the scenario (what the data is, who receives it).
  R15: row(
    'critical',
    ['PRIV-1', 'PRIV-6'],
    'special-category data (health, identity documents, tax, CV; card or bank numbers) reaches an AI provider or an unknown HTTP host',
  ),
  R16: row(
    'high',
    ['PRIV-1'],
    'personal data that identifies a person (a name, contact, identifier, or correspondence) reaches an AI provider',
  ),
  R17: row(
    'high',
    ['PRIV-4'],
    'personal data goes from an EU-zone scenario to a provider that processes it outside the EU',
  ),
  R18: row(
    'high',
    ['PRIV-6'],
    'special-category data is sent in a message to people other than the person it is about',
  ),
  R19: row('medium', ['PRIV-6'], "special-category data is written to the operator's own record store"),
  R20: row('high', ['PRIV-6'], 'a payment card number or security code is stored readable'),
  // A failed write whose error is ignored (what is lost).
  R21: row('high', ['DI-2'], 'a failed record write is dropped without any trace and nothing redoes it'),
  R22: row(
    'medium',
    ['DI-2'],
    'a failed change is dropped after a notification, only for some errors, or is reversible, a message to people, or a change the blueprint cannot show',
  ),
  R23: row('low', ['DI-2'], 'a failed notification to the owner or team is dropped'),
  // Text spliced into a query, a command or code (SEC-13; rows I1-I3 of its first version).
  R24: row(
    'high',
    ['SEC-13'],
    'untrusted text (public webhook, inbound message, fetched page, or AI output steered by one) is spliced into a query, command or code',
  ),
  R25: row(
    'medium',
    ['SEC-13'],
    'an internal record is spliced into a query, command or code (second-order injection)',
  ),
  R26: row(
    'medium',
    ['SEC-13'],
    'AI output of a model fed only internal data is spliced into a query, command or code',
  ),
  // What an AI agent's own settings allow (AI-8).
  R27: row(
    'high',
    ['AI-8'],
    'an AI agent instructed by attacker-controlled input has a tool that writes, sends or deletes and runs without approval',
  ),
  R28: row(
    'medium',
    ['AI-8'],
    'an AI agent fed internal data has a tool that writes, sends or deletes and runs without approval',
  ),
  R29: row(
    'low',
    ['AI-8'],
    "an AI agent with tools sets no recursion limit (steps per run): Make's default bounds its cost",
  ),
} as const satisfies Record<string, Omit<ModelRow, 'id'>>;

/** A row id (`R1` … `R29`). */
export type RowId = keyof typeof ROWS;

/** Every row in id order (`docs/engine.md` lists the same). */
export const RISK_MODEL: readonly ModelRow[] = (Object.keys(ROWS) as RowId[]).map((id) => ({ id, ...ROWS[id] }));

/** The dimension values a policy observed for a finding. */
export interface Observed {
  readonly audience?: Audience;
  readonly trust?: SourceTrust;
  readonly sensitivity?: Sensitivity;
  readonly impact?: Impact;
}

/**
 * The row `id` as a finding's `risk`, with the dimension values the policy observed (absent ones are
 * left out). `riskRow('R2', { audience: 'third-party' })` → `{ id: 'R2', title, severity: 'high', audience }`.
 */
export function riskRow(id: RowId, observed: Observed = {}): RiskRow {
  const r = ROWS[id];
  // Assignment, not conditional spreads: called for every finding of seven policies.
  const out: { -readonly [K in keyof RiskRow]: RiskRow[K] } = { id, title: r.title, severity: r.severity };
  if (observed.audience) out.audience = observed.audience;
  if (observed.trust) out.trust = observed.trust;
  if (observed.sensitivity) out.sensitivity = observed.sensitivity;
  if (observed.impact) out.impact = observed.impact;
  return out;
}

/** The severity row `id` sets. */
export function rowSeverity(id: RowId): Severity {
  return ROWS[id].severity;
}

function row(severity: Severity, policies: readonly string[], title: string): Omit<ModelRow, 'id'> {
  return { severity, policies, title };
}
