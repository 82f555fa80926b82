/**
 * @module cli/scan/format-html: one self-contained HTML report (issue 18): per scanned file its
 * score, counts by severity, the scenario drawn (render/svg), a table of findings and the remediation
 * steps. Inline CSS, no script, no external resource: it can be mailed, archived or attached to a CI
 * run and opened offline. Reasons, summaries and steps are Markdown, rendered by render/markdown
 * (issue 30: raw HTML escaped, dangerous link protocols dropped).
 */
import type { ScenarioEvaluation, Severity } from '../../engine/index.js';
import type { RenderViolation } from '../../render/index.js';
import type { WaivedResult } from './waivers.js';
import { describeInvalid } from './file-result.js';
import { parseBlueprint, SEVERITY_RANK } from '../../engine/index.js';
import { escapeXml as esc, markdownInlineHtml, renderScenarioSvg } from '../../render/index.js';
import { SEVERITY_BADGE } from '../../render/palette.js';
import { hasUnwaivedFinding } from './waivers.js';

const SEVERITIES = (Object.keys(SEVERITY_RANK) as Severity[]).sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a]);

const CSS = `
body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;color:#111827;background:#f9fafb}
h1{font-size:1.4rem;margin:0 0 .5rem}h2{font-size:1.15rem;margin:0 0 .25rem}
section{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:1rem;margin:1rem 0}
.meta{color:#4b5563;margin:.25rem 0 .75rem}.counts span{display:inline-block;margin-right:.5rem}
.sev{display:inline-block;color:#fff;font-weight:700;font-size:.75rem;padding:.1rem .45rem;border-radius:.6rem}
.picture{overflow:auto;border:1px solid #e5e7eb;border-radius:6px;max-height:80vh;background:#fff}
table{border-collapse:collapse;width:100%;margin-top:.75rem;font-size:.875rem}
th,td{border-bottom:1px solid #e5e7eb;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f6}tr.waived td{color:#6b7280}.waived-mark{font-style:italic}
.invalid{border-color:#dc2626}code{font-size:.85em}
h3{font-size:1rem;margin:1rem 0 .25rem}h4{font-size:.9rem;margin:.75rem 0 .25rem}ol{margin:.25rem 0;padding-left:1.5rem}
${SEVERITIES.map((s) => `.sev-${s}{background:${SEVERITY_BADGE[s].fill}}`).join('')}
`;

/** A scanned file's violations as the picture takes them: the scanner's waivers (by fingerprint) become `waived` marks. */
function forPicture(r: WaivedResult & { kind: 'evaluated' }): RenderViolation[] {
  return r.evaluation.violations.map((v) => ({
    ...v,
    failing_modules: v.failing_modules.map((f) => ({ ...f, waived: r.waived?.[f.fingerprint] })),
    waived: v.failing_modules.length === 0 ? r.waived?.[v.fingerprint] : undefined,
  }));
}

/** A Markdown text as HTML; links stay text, so no external URL reaches an `href` of the report. */
function md(text: string): string {
  return markdownInlineHtml(text, { links: false });
}

function sev(s: Severity): string {
  return `<span class="sev sev-${s}">${SEVERITY_BADGE[s].label}</span>`;
}

function evaluatedSection(r: WaivedResult & { kind: 'evaluated' }, index: number): string {
  const ev = r.evaluation;
  // The text is kept for this report (`ScanOptions.keepText`); without it the section has no picture.
  const parsed = r.text === undefined ? null : parseBlueprint(JSON.parse(r.text));
  const svg = parsed?.ok ? renderScenarioSvg(parsed.graph, forPicture(r), { idPrefix: `file-${index}` }) : '';
  const counts = new Map<Severity, number>();
  let waived = 0;
  for (const v of ev.violations)
    if (hasUnwaivedFinding(r, v)) counts.set(v.severity, (counts.get(v.severity) ?? 0) + 1);
    else waived++;
  const rows = ev.violations.flatMap((v) =>
    (v.failing_modules.length > 0 ? v.failing_modules : [null]).map((f) => {
      const by = r.waived?.[f ? f.fingerprint : v.fingerprint];
      const module = f ? `${esc(f.module_id)} · ${esc(f.module_name)}` : '<em>scenario</em>';
      const mark = by
        ? `<span class="waived-mark">waived until ${esc(by.expires)}: ${esc(by.reason)}${by.approver ? ` (${esc(by.approver)})` : ''}</span>`
        : '';
      return `<tr${by ? ' class="waived"' : ''}><td><code>${esc(v.policy)}</code></td><td>${sev(f?.severity ?? v.severity)}</td><td>${v.status}</td><td>${esc(v.title)}</td><td>${module}</td><td>${md(f ? f.reason : v.summary)}</td><td>${mark}</td></tr>`;
    }),
  );
  return [
    `<section id="file-${index}-section"><h2>${esc(r.file)}</h2>`,
    `<p class="meta">“${esc(ev.scenario_name)}”: score <strong>${ev.score}/100</strong>, ${ev.module_count} modules, ${ev.violations.length} violations</p>`,
    `<p class="counts">${SEVERITIES.map((s) => `<span>${sev(s)} ${counts.get(s) ?? 0}</span>`).join('')}<span>waived ${waived}</span></p>`,
    `<div class="picture">${svg}</div>`,
    rows.length > 0
      ? `<table><thead><tr><th>Policy</th><th>Severity</th><th>Status</th><th>Title</th><th>Module</th><th>Reason</th><th>Waiver</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p>No violations.</p>',
    remediationPart(ev),
    '</section>',
  ].join('\n');
}

/** The remediation steps of each violated policy (Markdown rendered), in violation order; empty without any. */
function remediationPart(ev: ScenarioEvaluation): string {
  const plans = ev.violations.flatMap((v) => {
    const rem = ev.remediation[v.policy];
    return rem ? [{ v, rem }] : [];
  });
  if (plans.length === 0) return '';
  return [
    '<h3>Remediation</h3>',
    ...plans.map(
      ({ v, rem }) =>
        `<h4><code>${esc(v.policy)}</code> ${esc(v.title)} <span class="meta">(effort: ${rem.estimated_effort})</span></h4><ol>${rem.steps.map((s) => `<li>${md(s)}</li>`).join('')}</ol>`,
    ),
  ].join('\n');
}

/**
 * Renders `results` as one HTML document (UTF-8): a summary with a link per file, then a section
 * per evaluated file (file, scenario name, score, violation counts by severity and waived, the
 * picture, one table row per finding with waived ones marked, the remediation steps per violated
 * policy), invalid files with their first
 * problem and skipped ones with the reason. `version` is the tool version, shown in the header.
 */
export function formatHtml(results: readonly WaivedResult[], version: string): string {
  const sections = results.map((r, i) =>
    r.kind === 'evaluated'
      ? evaluatedSection(r, i + 1)
      : r.kind === 'invalid'
        ? `<section class="invalid" id="file-${i + 1}-section"><h2>${esc(r.file)}</h2><p>Invalid blueprint: ${r.position ? esc(describeInvalid(r)) : r.error.issues.map((is) => `${esc(is.message)} at <code>${esc(is.pointer || '/')}</code>`).join('; ')}</p></section>`
        : `<section id="file-${i + 1}-section"><h2>${esc(r.file)}</h2><p>Skipped: ${esc(r.reason)}</p></section>`,
  );
  const toc = results
    .map(
      (r, i) =>
        `<li><a href="#file-${i + 1}-section">${esc(r.file)}</a>${r.kind === 'evaluated' ? `: ${r.evaluation.score}/100` : `: ${r.kind}`}</li>`,
    )
    .join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>gov scan report</title><style>${CSS}</style></head><body>`,
    `<header><h1>gov scan report</h1><p class="meta">gov ${esc(version)}: ${results.length} file(s), ${results.filter((r) => r.kind === 'evaluated').length} evaluated</p><ul>${toc}</ul></header>`,
    ...sections,
    '</body></html>',
    '',
  ].join('\n');
}
