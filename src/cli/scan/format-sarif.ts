/**
 * @module cli/scan/format-sarif: SARIF 2.1.0 (OASIS) output. Severities map to levels
 * (critical/high → error, medium → warning, low/info → note); rules carry metadata and help;
 * compliance frameworks are taxonomies; each result has a physical region (line of the JSON
 * Pointer) and a logical location (the pointer itself).
 */
import type { Severity } from '../../engine/index.js';
import type { WaivedResult } from './waivers.js';
import { POLICIES, refId } from '../../engine/index.js';
import { CATEGORY_NAMES } from '../../engine/policies/types.js';
import { locatePointer } from './locate.js';

/** SARIF level per severity. */
export const SARIF_LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};
/** GitHub code scanning's numeric security severity per severity. */
const SECURITY_SEVERITY: Readonly<Record<Severity, string>> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '1.0',
};

/** Renders a SARIF 2.1.0 log with one run. `version` is the tool version. */
export function formatSarif(results: readonly WaivedResult[], version: string): string {
  const frameworks = new Map<string, Map<string, number>>();
  const taxonIndex = (framework: string, id: string): [number, number] => {
    let taxa = frameworks.get(framework);
    if (!taxa) {
      taxa = new Map();
      frameworks.set(framework, taxa);
    }
    if (!taxa.has(id)) taxa.set(id, taxa.size);
    return [[...frameworks.keys()].indexOf(framework), taxa.get(id)!];
  };
  const rules = POLICIES.map((p) => ({
    id: p.code,
    name: p.title.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')),
    shortDescription: { text: p.title },
    fullDescription: { text: p.description },
    help: {
      text: `${p.rationale}\nAvoid: ${p.examples.avoid}\nPrefer: ${p.examples.prefer}`,
      markdown: `**${p.code}: ${p.title}**\n\n${p.rationale}\n\n*Avoid:* ${p.examples.avoid}\n\n*Prefer:* ${p.examples.prefer}`,
    },
    helpUri: `https://github.com/governance-evaluation-service/docs/blob/main/policies/${p.code}.md`,
    defaultConfiguration: { level: SARIF_LEVEL[p.severity] },
    properties: {
      category: CATEGORY_NAMES[p.category],
      severity: p.severity,
      'security-severity': SECURITY_SEVERITY[p.severity],
      tags: [p.category.toLowerCase(), 'make', 'governance'],
    },
    relationships: p.compliance_frameworks.map((r) => {
      const [componentIndex, index] = taxonIndex(r.framework, refId(r));
      return {
        target: { id: refId(r), index, toolComponent: { name: r.framework, index: componentIndex } },
        kinds: ['relevant'],
      };
    }),
  }));
  const ruleIndex = new Map(POLICIES.map((p, i) => [p.code, i]));
  const artifacts: { location: { uri: string } }[] = [];
  const sarifResults: unknown[] = [];
  for (const r of results) {
    if (r.kind !== 'evaluated') continue;
    const uri = r.file.split('\\').join('/');
    const waived = r.waived;
    artifacts.push({ location: { uri } });
    for (const v of r.evaluation.violations) {
      const targets =
        v.failing_modules.length > 0
          ? v.failing_modules.map((m) => ({
              pointer: m.evidence?.pointer ?? '',
              text: `${v.title}: module ${m.module_id} "${m.module_name}" ${m.reason}`,
              severity: m.severity,
              fingerprint: m.fingerprint,
            }))
          : [
              {
                pointer: v.evidence?.pointer ?? '',
                text: `${v.title}: ${v.summary}`,
                severity: v.severity,
                fingerprint: v.fingerprint,
              },
            ];
      for (const t of targets) {
        const at = locatePointer(r.text, t.pointer) ?? { line: 1, column: 1 };
        sarifResults.push({
          ruleId: v.policy,
          ruleIndex: ruleIndex.get(v.policy),
          level:
            v.status === 'warn' ? (SARIF_LEVEL[t.severity] === 'error' ? 'warning' : 'note') : SARIF_LEVEL[t.severity],
          message: { text: t.text },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri, index: artifacts.length - 1 },
                region: { startLine: at.line, startColumn: at.column },
              },
              logicalLocations: [{ fullyQualifiedName: t.pointer || '/', kind: 'member' }],
            },
          ],
          partialFingerprints: { 'govFinding/v1': t.fingerprint },
          ...(waived?.[t.fingerprint]
            ? {
                // A waiver of the team's waiver file (.govignore.yaml): suppressed outside the source.
                suppressions: [{ kind: 'external', status: 'accepted', justification: waived[t.fingerprint]!.reason }],
              }
            : {}),
          properties: { severity: t.severity, status: v.status, pointer: t.pointer },
        });
      }
    }
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'gov',
            fullName: 'Governance Evaluation Service scanner',
            version,
            semanticVersion: version,
            informationUri: 'https://github.com/governance-evaluation-service',
            rules,
          },
        },
        taxonomies: [...frameworks].map(([name, taxa]) => ({
          name,
          taxa: [...taxa.keys()].map((id) => ({ id, shortDescription: { text: `${name} ${id}` } })),
        })),
        artifacts,
        results: sarifResults,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
