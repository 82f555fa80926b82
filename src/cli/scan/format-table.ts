/** @module cli/scan/format-table: the readable terminal report. */
import type { WaivedResult } from './waivers.js';
import { describeInvalid } from './file-result.js';

const MARK: Readonly<Record<string, string>> = {
  critical: 'CRIT',
  high: 'HIGH',
  medium: 'MED ',
  low: 'LOW ',
  info: 'INFO',
};

/** Table options. */
export interface TableOptions {
  /**
   * Findings only (`-q, --quiet`): files with violations and invalid files; no skipped files, no
   * header for a clean file, no summary lines. Default false.
   */
  readonly quiet?: boolean;
}

/** Renders results as a readable report with a per-policy summary at the end (not when quiet). */
export function formatTable(results: readonly WaivedResult[], options: TableOptions = {}): string {
  const quiet = options.quiet ?? false;
  const lines: string[] = [];
  const perPolicy = new Map<string, { title: string; files: number; findings: number }>();
  let evaluated = 0;
  for (const r of results) {
    if (r.kind === 'skipped') {
      if (!quiet) lines.push(`- ${r.file}: skipped (${r.reason})`);
      continue;
    }
    if (r.kind === 'invalid') {
      lines.push(`x ${r.file}: INVALID ${describeInvalid(r)}`);
      continue;
    }
    evaluated++;
    const ev = r.evaluation;
    if (quiet && ev.violations.length === 0) continue;
    lines.push(
      '',
      `${r.file}: "${ev.scenario_name}"  score ${ev.score}/100  ${ev.module_count} modules  ${ev.violations.length} violations (${ev.critical} critical)`,
    );
    for (const v of ev.violations) {
      lines.push(
        `  ${MARK[v.severity]} ${v.policy.padEnd(7)} ${v.status === 'warn' ? '(warn) ' : ''}${v.title}: ${v.summary}`,
      );
      for (const m of v.failing_modules.slice(0, 3)) {
        const w = r.waived?.[m.fingerprint];
        lines.push(
          `         module ${m.module_id} ${m.module_name}: ${m.reason}${w ? ` [waived until ${w.expires}: ${w.reason}]` : ''}`,
        );
      }
      if (v.failing_modules.length > 3) lines.push(`         ... and ${v.failing_modules.length - 3} more modules`);
      const p = perPolicy.get(v.policy) ?? { title: v.title, files: 0, findings: 0 };
      p.files++;
      p.findings += Math.max(1, v.failing_modules.length);
      perPolicy.set(v.policy, p);
    }
  }
  if (quiet) return lines.length > 0 ? `${lines.join('\n').replace(/^\n/, '')}\n` : '';
  lines.push(
    '',
    `Scanned ${results.length} file(s): ${evaluated} evaluated, ${results.filter((r) => r.kind === 'invalid').length} invalid, ${results.filter((r) => r.kind === 'skipped').length} skipped.`,
  );
  if (perPolicy.size > 0) {
    lines.push('', 'Policy   scenarios findings  title');
    for (const [code, p] of [...perPolicy].sort((a, b) => b[1].files - a[1].files))
      lines.push(`${code.padEnd(8)} ${String(p.files).padStart(9)} ${String(p.findings).padStart(8)}  ${p.title}`);
  }
  return `${lines.join('\n')}\n`;
}
