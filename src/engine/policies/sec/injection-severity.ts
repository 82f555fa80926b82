/**
 * @module engine/policies/sec/injection-severity: the severity of a value spliced into SQL, a shell
 * command or source code (SEC-13), as rows of the issue 32 risk model (first ids `I1`–`I3`; table in
 * docs/engine.md, "Injection into queries, commands and code"), now rows R24-R26 of the shared
 * model (`risk/model.ts`).
 *
 * The row depends on the source's trust only: once text reaches the parser of a query or a shell,
 * what the statement was meant to do (read or delete) no longer bounds what it does (stacked
 * statements, `UNION`, sub-commands), so the impact is reported but does not lower the row.
 */
import type { Impact, RiskRow, SourceTrust } from '../../risk/types.js';
import { riskRow } from '../../risk/model.js';

/**
 * The row for a value of trust `trust` spliced into a query, command or code, with the observed
 * dimensions; `null` for a constant the author wrote (nothing to inject). Rows of `risk/model.ts`:
 * R24 untrusted or steered AI output (high), R25 an internal record (medium), R26 AI output of a model
 * fed only internal data (medium).
 * @param steered For `ai-output`: the model's prompt carries untrusted input (`source-trust.ts`).
 * @param impact What the statement does, when known (SQL verb); reported, not scored.
 */
export function injectionRow(trust: SourceTrust, steered: boolean, impact?: Impact): RiskRow | null {
  if (trust === 'constant') return null;
  const id = trust === 'internal-record' ? 'R25' : trust === 'ai-output' && !steered ? 'R26' : 'R24';
  return riskRow(id, impact === undefined ? { trust } : { trust, impact });
}
