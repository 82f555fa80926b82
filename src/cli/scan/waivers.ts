/**
 * @module cli/scan/waivers: a waiver file for teams that keep blueprints in Git (issue 17:
 * "`.govignore.yaml`, with reason and expiry, expired entries reported"), in the spirit of Trivy's
 * ignore file with expiry dates. A waiver accepts a known risk for a while: the finding is still
 * reported, marked waived (SARIF: a `suppressions` entry of kind `external` whose justification is
 * the reason), and no longer fails the scan. An expired waiver applies no more and is reported.
 *
 * ```yaml
 * waivers:
 *   - policy: SEC-1                      # required
 *     file: blueprints/orders.json       # optional: the path as scanned
 *     module: "2"                        # optional: the module id
 *     fingerprint: 0123456789abcdef      # optional: one finding
 *     reason: test fixture, no real key  # required
 *     approver: security@example.com     # optional
 *     expires: 2027-01-31                # required: the last day it applies (UTC)
 * ```
 */
import { readFileSync } from 'node:fs';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { Violation } from '../../engine/index.js';
import type { FileResult } from './file-result.js';
import { FULL_DATE_RULE, isFullDate } from '../../model/rfc3339.js';

/** One waiver of the file. */
export interface ScanWaiver {
  readonly policy: string;
  readonly file?: string;
  readonly module?: string;
  readonly fingerprint?: string;
  readonly reason: string;
  readonly approver?: string;
  /** `YYYY-MM-DD`: the last day (UTC) the waiver applies. */
  readonly expires: string;
}

/** A waiver file that cannot be used (exit 2). */
export class WaiverFileError extends Error {
  override readonly name = 'WaiverFileError';
}

/** What a waived finding carries in the reports. */
export interface WaivedBy {
  readonly reason: string;
  readonly expires: string;
  readonly approver?: string;
}

/** A scanned file with its waived findings, by fingerprint. */
export type WaivedResult = FileResult & { readonly waived?: Readonly<Record<string, WaivedBy>> };

/** Reads and checks a waiver file. @throws WaiverFileError naming the file, the entry and the field. */
export function readWaivers(path: string): ScanWaiver[] {
  let doc: unknown;
  try {
    // The core schema reads `2027-02-30` as the text it is: the default one makes every unquoted
    // date a Date, rolling an impossible day over into the next month (2 March) before it is checked.
    doc = load(readFileSync(path, 'utf8'), { schema: CORE_SCHEMA });
  } catch (err) {
    throw new WaiverFileError(`waivers ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const list = (doc as { waivers?: unknown } | null)?.waivers;
  if (!Array.isArray(list)) throw new WaiverFileError(`waivers ${path}: expected a "waivers" list`);
  return list.map((raw, i): ScanWaiver => {
    const at = `waivers ${path}, entry ${i + 1}`;
    if (raw === null || typeof raw !== 'object') throw new WaiverFileError(`${at}: not a mapping`);
    const w = raw as Record<string, unknown>;
    const text = (name: string, required: boolean): string | undefined => {
      const v = w[name];
      if (v === undefined || v === null) {
        if (required) throw new WaiverFileError(`${at}: "${name}" is required`);
        return undefined;
      }
      // YAML reads a bare number as a number (dates stay text: CORE_SCHEMA).
      if (typeof v === 'string' || typeof v === 'number') return String(v);
      throw new WaiverFileError(`${at}: "${name}" must be text`);
    };
    const expires = text('expires', true)!;
    if (!isFullDate(expires)) throw new WaiverFileError(`${at}: "expires" ${FULL_DATE_RULE}`);
    const reason = text('reason', true)!;
    if (reason.trim() === '') throw new WaiverFileError(`${at}: "reason" must not be empty`);
    const optional = (name: 'file' | 'module' | 'fingerprint' | 'approver') => {
      const v = text(name, false);
      return v === undefined ? {} : { [name]: v };
    };
    return {
      policy: text('policy', true)!,
      reason,
      expires,
      ...optional('file'),
      ...optional('module'),
      ...optional('fingerprint'),
      ...optional('approver'),
    };
  });
}

/** True while `w` applies on the UTC day of `nowMs` (its `expires` day included). */
export function isActive(w: ScanWaiver, nowMs: number): boolean {
  return new Date(nowMs).toISOString().slice(0, 10) <= w.expires;
}

/** One finding of a violation: a failing module, or the violation itself when it names none. */
function findingsOf(v: Violation): { readonly fingerprint: string; readonly module?: string }[] {
  return v.failing_modules.length > 0
    ? v.failing_modules.map((f) => ({ fingerprint: f.fingerprint, module: f.module_id }))
    : [{ fingerprint: v.fingerprint }];
}

/**
 * Marks the findings that an active waiver matches (policy, and each of file, module and
 * fingerprint that the waiver names). @returns the results and the expired waivers (reported,
 * never applied).
 */
export function applyWaivers(
  results: readonly FileResult[],
  waivers: readonly ScanWaiver[],
  nowMs: number,
): { readonly results: WaivedResult[]; readonly expired: ScanWaiver[]; readonly waivedCount: number } {
  const active = waivers.filter((w) => isActive(w, nowMs));
  let waivedCount = 0;
  const marked = results.map((r): WaivedResult => {
    if (r.kind !== 'evaluated') return r;
    const waived: Record<string, WaivedBy> = {};
    for (const v of r.evaluation.violations)
      for (const f of findingsOf(v)) {
        const w = active.find(
          (a) =>
            a.policy === v.policy &&
            (a.file === undefined || a.file === r.file) &&
            (a.module === undefined || a.module === f.module) &&
            (a.fingerprint === undefined || a.fingerprint === f.fingerprint),
        );
        if (!w) continue;
        waived[f.fingerprint] = {
          reason: w.reason,
          expires: w.expires,
          ...(w.approver ? { approver: w.approver } : {}),
        };
        waivedCount++;
      }
    return Object.keys(waived).length > 0 ? { ...r, waived } : r;
  });
  return { results: marked, expired: waivers.filter((w) => !isActive(w, nowMs)), waivedCount };
}

/** True when some finding of `v` is not waived in `r` (a violation counts toward the exit code only then). */
export function hasUnwaivedFinding(r: WaivedResult, v: Violation): boolean {
  return findingsOf(v).some((f) => r.waived?.[f.fingerprint] === undefined);
}
