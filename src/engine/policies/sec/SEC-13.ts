/**
 * @module engine/policies/sec/SEC-13: a query, shell command or piece of code built by splicing
 * mapped values into its text (issue 32, "Injection into queries").
 *
 * Sources: OWASP Top 10:2021 A03 Injection; CWE-89 (SQL injection), CWE-78 (OS command injection),
 * CWE-94 (code injection); OWASP SQL Injection Prevention Cheat Sheet (bound parameters first;
 * escaping is the last resort); OWASP Top 10 for LLM Applications 2025, LLM05 "Improper Output
 * Handling" (model output run as a query or command). Make apps PostgreSQL, MySQL, Microsoft SQL
 * Server, SSH, Code and Custom JS (`injection-sinks.ts`, `program.ts`).
 */
import type { Finding, Policy } from '../types.js';
import type { EvidenceStep, RiskRow } from '../../risk/types.js';
import type { Analysis } from '../../analysis.js';
import type { FieldRef } from '../../blueprint/expressions.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { SEVERITY_RANK } from '../../severity.js';
import { redact, scanText } from '../../secrets/scan.js';
import { fieldPath, findingModules, moduleRef } from '../helpers.js';
import { injectionSites, type InjectionSite } from './injection-sinks.js';
import { injectionRow } from './injection-severity.js';
import { TRUST_ORDER, trustOfRef, type RefTrust } from './source-trust.js';
import { blocksOf, statementImpact } from './sql-text.js';

/** SEC-13: mapped values spliced into SQL, a shell command or source code. */
export const SEC_13: Policy = {
  code: 'SEC-13',
  title: 'Query or command built from untrusted input',
  category: 'SEC',
  severity: 'high',
  description:
    "A module builds SQL, a shell command or source code by pasting mapped values into its text (`WHERE email = '{{1.email}}'`), so whoever writes those values can change what the database, server or interpreter runs. Values passed as bound parameters, stored-procedure arguments or code inputs are data and are not reported; nor are values escaped for their SQL string or numbers by construction.",
  rationale:
    'Injection is OWASP Top 10:2021 A03: text an outside party writes reaches a parser that cannot tell it from the statement (CWE-89 SQL injection, CWE-78 OS command injection, CWE-94 code injection). The OWASP SQL Injection Prevention Cheat Sheet puts bound parameters first and escaping last; model output run as a query is LLM05:2025 Improper Output Handling. Controls: PCI DSS v4.0 6.2.4 (injection attacks), NIST SP 800-53 SI-10, ISO/IEC 27001 A.8.28 secure coding, SOC 2 CC6.6.',
  compliance_frameworks: [ref(F.pci, '6.2.4'), ref(F.nist, 'SI-10'), ref(F.iso27001, 'A.8.28'), ref(F.soc2, 'CC6.6')],
  examples: {
    avoid:
      "A PostgreSQL query `SELECT * FROM leads WHERE email = '{{1.email}}'` after a public webhook, or `jscode` containing `const name = '{{1.name}}'`.",
    prefer:
      'A stored procedure or parameterised query (`WHERE email = $1`) with `{{1.email}}` in its own parameter field; a code module that reads `input.name`.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      let worst: Judged | null = null;
      let count = 0;
      for (const site of injectionSites(m, df.mappedValuesOf(m.id))) {
        const judged = judge(analysis, site);
        if (!judged) continue;
        count++;
        if (!worst || rank(judged) > rank(worst)) worst = judged;
      }
      if (!worst) continue;
      const { site, row, ref: r, source } = worst;
      const more = count > 1 ? ` (and ${count - 1} more field${count === 2 ? '' : 's'})` : '';
      const path: EvidenceStep[] =
        source.origin !== null && source.origin !== m.id
          ? [
              { moduleId: source.origin, role: 'source', note: source.label },
              { moduleId: m.id, role: 'sink', note: `${SINK_NAME[site.kind]} built with \`${r.moduleId}.${r.path}\`` },
            ]
          : [{ moduleId: m.id, role: 'sink', note: `${SINK_NAME[site.kind]} built with \`${r.moduleId}.${r.path}\`` }];
      findings.push({
        moduleId: m.id,
        reason: `\`${fieldName(site)}\` splices \`${r.moduleId}.${r.path}\` from ${source.label} ${where(site)}${more}`,
        severity: row.severity,
        evidence: { pointer: site.leaf.pointer, value: excerpt(site, r) },
        path,
        risk: row,
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} module${findings.length === 1 ? '' : 's'} build${findings.length === 1 ? 's' : ''} a query, command or code from mapped values`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      return [
        ...findingModules(outcome, analysis).map(
          (m) =>
            `In ${moduleRef(m)}, take the mapped values out of the text: use a parameterised query (\`$1\`, \`?\`, \`@name\`) or a stored procedure with each value in its own parameter field; for code, pass values as inputs and read them as data.`,
        ),
        'Where a value must stay in the text, validate it first with a filter (type, length, allowed characters); never run model output as a query or command without such a check.',
      ];
    },
  },
};

/** What a site's text is, for reasons and evidence steps. */
const SINK_NAME: Readonly<Record<InjectionSite['kind'], string>> = {
  sql: 'SQL',
  command: 'shell command',
  code: 'source code',
};

interface Judged {
  readonly site: InjectionSite;
  readonly row: RiskRow;
  readonly ref: FieldRef;
  readonly source: RefTrust;
}

/** The worst reference of a site and its risk-model row, `null` when every value is a constant. */
function judge(analysis: Analysis, site: InjectionSite): Judged | null {
  const df = analysis.dataflow();
  let best: { ref: FieldRef; source: RefTrust } | null = null;
  for (const r of site.refs) {
    const source = trustOfRef(df, analysis.graph.byId, r);
    if (!best || trustRank(source) > trustRank(best.source)) best = { ref: r, source };
  }
  if (!best) return null;
  const impact = site.kind === 'sql' && site.verb !== undefined ? statementImpact(site.verb) : undefined;
  const row = injectionRow(best.source.trust, best.source.steered === true, impact);
  return row ? { site, row, ...best } : null;
}

/** Higher is worse: untrusted sources and steered models first. */
function trustRank(t: RefTrust): number {
  const base = TRUST_ORDER.length - TRUST_ORDER.indexOf(t.trust);
  return t.trust === 'ai-output' && t.steered !== true ? base - 0.5 : base;
}

function rank(j: Judged): number {
  return SEVERITY_RANK[j.row.severity] * 100 + trustRank(j.source);
}

/** The field's name as the author sees it (`script`, `jscode`), else its path in the module. */
function fieldName(site: InjectionSite): string {
  return site.leaf.fieldName ?? fieldPath(site.leaf.module, site.leaf.pointer);
}

/** "inside a quoted string of an SQL `SELECT`", "into the shell command". */
function where(site: InjectionSite): string {
  const verb = site.verb ? ` \`${site.verb.toUpperCase()}\`` : '';
  switch (site.kind) {
    case 'sql':
      return site.position === 'whole'
        ? 'as the whole SQL statement'
        : site.position === 'quoted'
          ? `inside a quoted string of an SQL${verb} statement, not as a bound parameter`
          : `into the text of an SQL${verb} statement, not as a bound parameter`;
    case 'command':
      return 'into the shell command';
    case 'code':
      return 'into the source code';
  }
}

/** Up to 120 characters of the field around the splice, with any secret in them redacted. */
function excerpt(site: InjectionSite, r: FieldRef): string {
  const value = site.leaf.value;
  const block = blocksOf(value).find((b) => b.expr.includes(`${r.moduleId}.`));
  const from = Math.max(0, (block?.start ?? 0) - 60);
  const text = `${from > 0 ? '…' : ''}${value.slice(from, from + 120)}${from + 120 < value.length ? '…' : ''}`;
  return redact(text, scanText(text));
}
