/** @module cli/scan/format-json: machine-readable results (the engine's evaluation per file). */
import type { WaivedResult } from './waivers.js';

/** `{ files: [{ file, status, score, violations, ... }] }`; module graphs and remediation included. */
export function formatJson(results: readonly WaivedResult[]): string {
  return `${JSON.stringify(
    {
      files: results.map((r) =>
        r.kind === 'evaluated'
          ? { file: r.file, status: 'evaluated', ...r.evaluation, ...(r.waived ? { waived: r.waived } : {}) }
          : r.kind === 'invalid'
            ? { file: r.file, status: 'invalid', error: r.error, ...(r.position ? { position: r.position } : {}) }
            : { file: r.file, status: 'skipped', reason: r.reason },
      ),
    },
    null,
    2,
  )}\n`;
}
