/**
 * @module engine/policies/sec/injection-severity: the severity of a value spliced into SQL, a shell
 * command or source code (SEC-13), as rows of the issue 32 risk model (ids `I1`–`I3`; table in
 * docs/engine.md, "Injection into queries, commands and code"). Until the shared risk model
 * (`risk/model.ts`) exists these rows stand alone; their ids stay when they are wired into it.
 *
 * The row depends on the source's trust only: once text reaches the parser of a query or a shell,
 * what the statement was meant to do (read or delete) no longer bounds what it does (stacked
 * statements, `UNION`, sub-commands), so the impact is reported but does not lower the row.
 */
import type { Impact, RiskRow, SourceTrust } from '../../risk/types.js';

/** `I1`: someone outside chooses the text: a public webhook, an inbound message, a fetched page, or a model steered by one. */
export const ROW_UNTRUSTED = {
  id: 'I1',
  title:
    'Untrusted text (public webhook, inbound message, fetched page, or AI output steered by one) spliced into a query, command or code',
  severity: 'high',
} as const satisfies RiskRow;

/** `I2`: the organisation's own records: exploitable by whoever can write them (second-order injection). */
export const ROW_INTERNAL = {
  id: 'I2',
  title: 'An internal record spliced into a query, command or code (second-order injection)',
  severity: 'medium',
} as const satisfies RiskRow;

/** `I3`: a model's text from the organisation's own data: no attacker writes it, but any quote or metacharacter it produces breaks the statement. */
export const ROW_AI_INTERNAL = {
  id: 'I3',
  title: 'AI output of a model fed only internal data spliced into a query, command or code',
  severity: 'medium',
} as const satisfies RiskRow;

/**
 * The row for a value of trust `trust` spliced into a query, command or code, with the observed
 * dimensions; `null` for a constant the author wrote (nothing to inject).
 * @param steered For `ai-output`: the model's prompt carries untrusted input (`source-trust.ts`).
 * @param impact What the statement does, when known (SQL verb); reported, not scored.
 */
export function injectionRow(trust: SourceTrust, steered: boolean, impact?: Impact): RiskRow | null {
  if (trust === 'constant') return null;
  const row =
    trust === 'internal-record' ? ROW_INTERNAL : trust === 'ai-output' && !steered ? ROW_AI_INTERNAL : ROW_UNTRUSTED;
  return impact === undefined ? { ...row, trust } : { ...row, trust, impact };
}
