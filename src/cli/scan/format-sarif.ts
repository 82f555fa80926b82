/**
 * @module cli/scan/format-sarif: SARIF 2.1.0 (OASIS) output for GitHub code scanning. Severities map
 * to levels (critical/high → error, medium → warning, low/info → note); rules carry metadata, their
 * policy page as help (sarif-help.ts), a `helpUri` when a documentation base is given, and GitHub's
 * properties (tags, precision, security-severity: sarif-properties.ts); compliance frameworks are
 * taxonomies; each result has a region (from the scan's one pass per file, locate.ts) in an
 * artifact relative to `%SRCROOT%` and a logical location (the JSON Pointer); a finding with an
 * evidence path (issue 32) has it as `codeFlows`, and its risk-model row in `properties.risk`. Files that are not
 * valid are no results: they are `toolExecutionNotifications` of the invocation. The log holds no
 * path or URL of the machine that ran the scan: no `file:` URL, no absolute path (issue 30).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { EvidencePathStep, Policy, Severity } from '../../engine/index.js';
import type { FindingLocation } from './file-result.js';
import type { Region } from './source-map.js';
import type { WaivedResult } from './waivers.js';
import { POLICIES, refId } from '../../engine/index.js';
import { CATEGORY_NAMES } from '../../engine/policies/types.js';
import { describeInvalid } from './file-result.js';
import { SECURITY_SEVERITY, helpUri, measuredPrecision, precisionOf } from './sarif-properties.js';
import { ruleHelp } from './sarif-help.js';

/** SARIF level per severity. */
export const SARIF_LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};
/** What `formatSarif` needs beside the results. */
export interface SarifOptions {
  /** The tool version. */
  readonly version: string;
  /**
   * Where the policy pages are served (`docBase()` of sarif-properties.ts), ending in `/`; undefined
   * (no `--doc-base`): no `helpUri` nor `informationUri`, the pages are in `help.markdown` only.
   */
  readonly docBase?: URL | undefined;
  /** The directory scanned paths are relative to: `%SRCROOT%` (default: the working directory). */
  readonly cwd?: string;
  /** The organization's custom rules (`--rules`), described as rules like the catalog's. */
  readonly extraPolicies?: readonly Policy[];
}

/** The SARIF base id of the directory the scan ran from (GitHub resolves it to the repository root). */
export const SRCROOT = '%SRCROOT%';

/**
 * A scanned file's path relative to the scan root `cwd`, with `/` between segments: `flows/x.json`,
 * `../other/x.json` for a file outside it (given relative or absolute, never as an absolute path);
 * `based` is false only for a file on another Windows drive, which has no path relative to the
 * root: it is then its path below that drive's root, without the drive.
 */
function relativePath(file: string, cwd: string): { path: string; based: boolean } {
  const rel = relative(cwd, resolve(cwd, file));
  const based = !isAbsolute(rel);
  const path = based ? rel : rel.slice(/^([A-Za-z]:)?[\\/]*/.exec(rel)![0].length);
  return { path: path.split(sep).join('/'), based };
}

/**
 * The artifact location of a scanned file: its path relative to `%SRCROOT%` (each segment
 * percent-encoded; `..` segments for a file outside the scan root); standard input is `<stdin>`
 * encoded, without a base, as is a file on another Windows drive (relativePath).
 */
function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  if (file === '<stdin>') return { uri: encodeURIComponent(file) };
  const { path, based } = relativePath(file, cwd);
  const uri = path.split('/').map(encodeURIComponent).join('/');
  return based ? { uri, uriBaseId: SRCROOT } : { uri };
}

/** A file's name in a notification's text: relative to the scan root, as its artifact location. */
function displayPath(file: string, cwd: string): string {
  return file === '<stdin>' ? file : relativePath(file, cwd).path;
}

/**
 * Renders a SARIF 2.1.0 log with one run, in pieces to write one after the other: the log up to
 * its results (pretty-printed), then one result per line, then the end. A scan of a thousand files
 * is written without ever holding the whole log, or a tree of all its results, in memory.
 */
export function* sarifChunks(results: readonly WaivedResult[], options: SarifOptions): Generator<string> {
  const { version, docBase } = options;
  const cwd = options.cwd ?? process.cwd();
  const measured = measuredPrecision();
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
  const policies = [...POLICIES, ...(options.extraPolicies ?? [])];
  const rules = policies.map((p) => ({
    id: p.code,
    name: p.title.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')),
    shortDescription: { text: p.title },
    fullDescription: { text: p.description },
    help: ruleHelp(p, measured[p.code], docBase),
    ...(docBase ? { helpUri: helpUri(docBase, p.code) } : {}),
    defaultConfiguration: { level: SARIF_LEVEL[p.severity] },
    properties: {
      // GitHub code scanning: `security` in the tags makes these security alerts, ranked by security-severity.
      tags: [...new Set(['security', CATEGORY_NAMES[p.category]])],
      precision: precisionOf(measured[p.code]),
      'security-severity': SECURITY_SEVERITY[p.severity],
      category: CATEGORY_NAMES[p.category],
      severity: p.severity,
    },
    relationships: p.compliance_frameworks.map((r) => {
      const [componentIndex, index] = taxonIndex(r.framework, refId(r));
      return {
        target: { id: refId(r), index, toolComponent: { name: r.framework, index: componentIndex } },
        kinds: ['relevant'],
      };
    }),
  }));
  const ruleIndex = new Map(policies.map((p, i) => [p.code, i]));
  // First pass (no findings): the artifacts, and the files that were not valid as notifications.
  const artifacts: { location: { uri: string; uriBaseId?: string } }[] = [];
  const artifactIndex = new Map<WaivedResult, number>();
  const notifications: unknown[] = [];
  for (const r of results) {
    if (r.kind === 'invalid') {
      // Not a result: a file that could not be evaluated is a notification of the run (exit 2). Its
      // path as given (which may be absolute, also inside a read error's message) is written relative.
      const shown = displayPath(r.file, cwd);
      const why = isAbsolute(r.file) ? describeInvalid(r).split(r.file).join(shown) : describeInvalid(r);
      notifications.push({
        level: 'error',
        message: { text: `${shown}: ${why}` },
        descriptor: { id: r.error.code },
        locations: [
          {
            physicalLocation: {
              artifactLocation: artifactLocation(r.file, cwd),
              ...(r.position ? { region: { startLine: r.position.line, startColumn: r.position.column } } : {}),
            },
          },
        ],
      });
    } else if (r.kind === 'evaluated') {
      artifactIndex.set(r, artifacts.length);
      artifacts.push({ location: artifactLocation(r.file, cwd) });
    }
  }
  const RESULTS = '"results": "RESULTS"';
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
            ...(docBase ? { informationUri: new URL('README.md', docBase).href } : {}),
            rules,
          },
        },
        taxonomies: [...frameworks].map(([name, taxa]) => ({
          name,
          taxa: [...taxa.keys()].map((id) => ({ id, shortDescription: { text: `${name} ${id}` } })),
        })),
        // No `uri`: the scan root's absolute path stays on the machine (SARIF §3.14.14 allows a base
        // without one); GitHub resolves `%SRCROOT%` against the repository root.
        originalUriBaseIds: {
          [SRCROOT]: { description: { text: 'The directory gov scan ran from: the repository root in CI.' } },
        },
        invocations: [{ executionSuccessful: notifications.length === 0, toolExecutionNotifications: notifications }],
        artifacts,
        columnKind: 'utf16CodeUnits',
        results: 'RESULTS',
      },
    ],
  };
  const head = JSON.stringify(log, null, 2);
  const cut = head.indexOf(RESULTS);
  yield `${head.slice(0, cut)}"results": [`;
  // Second pass: one result per line, written as it is made (no tree of every result in memory).
  let first = true;
  for (const r of results) {
    if (r.kind !== 'evaluated') continue;
    const index = artifactIndex.get(r)!;
    const location = artifacts[index]!.location;
    const waived = r.waived;
    for (const v of r.evaluation.violations) {
      const targets =
        v.failing_modules.length > 0
          ? v.failing_modules.map((m) => ({
              pointer: m.evidence?.pointer ?? '',
              text: `${v.title}: module ${m.module_id} "${m.module_name}" ${m.reason}`,
              severity: m.severity,
              fingerprint: m.fingerprint,
              path: m.evidence?.path,
              risk: m.evidence?.risk,
              places: m.evidence?.locations?.slice(1),
            }))
          : [
              {
                pointer: v.evidence?.pointer ?? '',
                text: `${v.title}: ${v.summary}`,
                severity: v.severity,
                fingerprint: v.fingerprint,
                path: undefined,
                risk: undefined,
                places: undefined,
              },
            ];
      for (const t of targets) {
        const at = r.locations?.get(t.fingerprint);
        // Without a location (a scan run without `locate`), the start of the file.
        const region = at?.region ?? FILE_START;
        const pointer = at?.pointer ?? t.pointer;
        const artifact = { ...location, index };
        const result = {
          ruleId: v.policy,
          ruleIndex: ruleIndex.get(v.policy),
          level:
            v.status === 'warn' ? (SARIF_LEVEL[t.severity] === 'error' ? 'warning' : 'note') : SARIF_LEVEL[t.severity],
          message: { text: t.text },
          locations: [
            {
              physicalLocation: { artifactLocation: artifact, region },
              logicalLocations: [{ fullyQualifiedName: pointer || '/', kind: 'member' }],
            },
          ],
          // The other places of one finding (a secret copied into several modules: SARIF 2.1.0 §3.27.22).
          ...(t.places && t.places.length > 0
            ? {
                relatedLocations: t.places.map((p, i) => ({
                  id: i + 1,
                  physicalLocation: {
                    artifactLocation: artifact,
                    region: r.placeLocations?.get(p.pointer)?.region ?? FILE_START,
                  },
                  logicalLocations: [{ fullyQualifiedName: p.pointer, kind: 'member' }],
                  message: { text: `also in module ${p.module_id}` },
                })),
              }
            : {}),
          ...(t.path && t.path.length > 0
            ? { codeFlows: [codeFlow(t.path, artifact, r.moduleLocations, { pointer: pointer || '/', region })] }
            : {}),
          partialFingerprints: { 'govFinding/v1': t.fingerprint },
          ...(waived?.[t.fingerprint]
            ? {
                // A waiver of the team's waiver file (.govignore.yaml): suppressed outside the source.
                suppressions: [{ kind: 'external', status: 'accepted', justification: waived[t.fingerprint]!.reason }],
              }
            : {}),
          properties: t.risk
            ? { severity: t.severity, status: v.status, pointer: t.pointer, risk: t.risk }
            : { severity: t.severity, status: v.status, pointer: t.pointer },
        };
        yield `${first ? '' : ','}\n        ${JSON.stringify(result)}`;
        first = false;
      }
    }
  }
  yield `${first ? '' : '\n      '}]${head.slice(cut + RESULTS.length)}\n`;
}

/** How a step's message names its role. */
const ROLE_NAMES: Readonly<Record<EvidencePathStep['role'], string>> = { source: 'Source', step: 'Step', sink: 'Sink' };

/** The start of a file: the region of a location not found (a scan run without `locate`). */
const FILE_START: Region = { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 };

/**
 * A finding's evidence path (issue 32) as a SARIF code flow (SARIF 2.1.0 §3.36 codeFlow, §3.37
 * threadFlow, §3.38 threadFlowLocation), as CodeQL's path problems give it: one thread flow whose
 * locations are the path's modules in data-flow order, each at its module's `module` line (the sink,
 * the finding's own module, at the result's location) with the step's role and note as its message;
 * the source and sink are `essential`, the steps between `important`.
 */
function codeFlow(
  path: readonly EvidencePathStep[],
  artifactLocation: { uri: string; uriBaseId?: string; index: number },
  modules: ReadonlyMap<string, FindingLocation> | undefined,
  sink: FindingLocation,
) {
  const last = path.length - 1;
  const source = path[0]!;
  return {
    message: {
      text: `${source.module_name} (module ${source.module_id}) → ${path[last]!.module_name} (module ${path[last]!.module_id})`,
    },
    threadFlows: [
      {
        locations: path.map((step, i) => {
          const at = i === last ? sink : (modules?.get(step.module_id) ?? { pointer: '/', region: FILE_START });
          return {
            location: {
              physicalLocation: { artifactLocation, region: at.region },
              logicalLocations: [{ fullyQualifiedName: at.pointer || '/', kind: 'member' }],
              message: {
                text: `${ROLE_NAMES[step.role]}: module ${step.module_id} "${step.module_name}": ${step.note}`,
              },
            },
            importance: step.role === 'step' ? 'important' : 'essential',
          };
        }),
      },
    ],
  };
}

/** Renders a SARIF 2.1.0 log with one run as one string (`sarifChunks` joined). */
export function formatSarif(results: readonly WaivedResult[], options: SarifOptions): string {
  return [...sarifChunks(results, options)].join('');
}
