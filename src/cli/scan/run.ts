/** @module cli/scan/run: collects blueprint files and evaluates them with the engine. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { globSync, isDynamicPattern } from 'tinyglobby';
import type { GovernanceSettingsBody, Policy, Severity } from '../../engine/index.js';
import type { FileResult } from './file-result.js';
import type { TextPosition } from './json-position.js';

export type { FileResult } from './file-result.js';
import { SEVERITY_RANK, evaluateBlueprint } from '../../engine/index.js';
import { hasUnwaivedFinding, type WaivedResult } from './waivers.js';
import { jsonErrorPosition } from './json-position.js';
import { locateScan } from './locate.js';

/** Scan options. */
export interface ScanOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** Organization settings (`--settings`, issue 17). */
  readonly settings?: GovernanceSettingsBody;
  /** Custom rules compiled (`--rules`, issue 17). */
  readonly extraPolicies?: readonly Policy[];
  /** Keep each evaluated file's text in its result (the HTML report draws the scenario from it). */
  readonly keepText?: boolean;
  /** Locate each finding in its file (SARIF regions): one jsonc-parser pass per file with findings. */
  readonly locate?: boolean;
  /**
   * Keep of each evaluation only what the findings need (violations, score, counts): the module
   * graph, the module summary and the remediation plans are emptied. For SARIF, which reports
   * findings only: a scan of a thousand files then holds a thousand findings lists, not a thousand
   * graphs.
   */
  readonly findingsOnly?: boolean;
  /** Called after each file with the count done and the total (the CLI's progress line on a TTY). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The path that means standard input (`gov scan -`), and the name its result is reported under. */
export const STDIN_PATH = '-';
export const STDIN_NAME = '<stdin>';

/** Options of `collectFiles`. */
export interface CollectOptions {
  /** Globs (picomatch) of paths to leave out, matched against the path relative to `cwd`; a glob without `/` matches a file or directory name anywhere. */
  readonly exclude?: readonly string[];
  /** The directory relative paths and globs start from (default: the working directory). */
  readonly cwd?: string;
}

/** A path argument that cannot be used (a usage error, exit 2). */
export class PathArgumentError extends Error {
  override readonly name = 'PathArgumentError';
}

/** A matcher for `--exclude` globs: true when a path (relative to the scan's directory, `/`-separated) is excluded. */
export function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.map((g) => picomatch(g, { dot: true, basename: !g.includes('/') }));
  return (path) => matchers.some((m) => m(path));
}

/**
 * Expands path arguments into file paths: a directory is searched recursively for `*.json` (sorted;
 * hidden entries and `node_modules` skipped), a glob (`'scenarios/**\/*.json'`, quoted so that gov
 * expands it, the same in every shell) selects the files it matches (tinyglobby, sorted), a file is
 * taken as is, `-` (standard input) is kept. Paths matching an `exclude` glob are left out, and a
 * directory matching one is not entered.
 * @throws PathArgumentError for a missing path, a glob that matches no file, or `-` given twice.
 */
export function collectFiles(paths: readonly string[], options: CollectOptions = {}): string[] {
  if (paths.filter((p) => p === STDIN_PATH).length > 1)
    throw new PathArgumentError('"-" (standard input) can be given once');
  const cwd = options.cwd ?? process.cwd();
  const excluded = excludeMatcher(options.exclude ?? []);
  const isExcluded = (p: string): boolean => {
    const rel = relative(cwd, resolve(cwd, p)).split(sep).join('/');
    return excluded(rel) || excluded(p.split(sep).join('/'));
  };
  const out: string[] = [];
  const walk = (p: string): void => {
    for (const entry of readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const child = join(p, entry.name);
      if (isExcluded(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.json')) out.push(child);
    }
  };
  for (const p of paths) {
    if (p === STDIN_PATH) {
      out.push(p);
      continue;
    }
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(resolve(cwd, p)).isDirectory();
    } catch {
      isDirectory = undefined;
    }
    if (isDirectory === undefined && isDynamicPattern(p)) {
      const matched = globSync(p, { cwd, onlyFiles: true, ignore: ['**/node_modules/**'] })
        .sort()
        .map((f) => (isAbsolute(p) ? resolve(cwd, f) : f))
        .filter((f) => !isExcluded(f));
      if (matched.length === 0) throw new PathArgumentError(`no file matches ${p}`);
      out.push(...matched.map((f) => (options.cwd ? resolve(cwd, f) : f)));
    } else if (isDirectory === undefined) {
      throw new PathArgumentError(`no such file or directory: ${p}`);
    } else if (isExcluded(p)) {
      continue;
    } else if (isDirectory) {
      walk(options.cwd ? resolve(cwd, p) : p);
    } else {
      out.push(options.cwd ? resolve(cwd, p) : p);
    }
  }
  return out;
}

/** V8's `JSON.parse` message without the quoted excerpt of the file (which could hold a secret) or the offset. */
function syntaxMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // `Unexpected token ',', ..."w": [\n    ,..." is not valid JSON`: the excerpt, `...` marking a cut, goes.
  return message
    .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
    .replace(/ in JSON at position \d+.*$/s, '');
}

function invalid(file: string, message: string, position?: TextPosition): FileResult {
  return {
    file,
    kind: 'invalid',
    error: { code: 'blueprint_invalid', message, issues: [] },
    ...(position ? { position } : {}),
  };
}

/**
 * Evaluates each file (`-` is standard input, reported as `<stdin>`). A file that cannot be read or
 * is not valid JSON is `invalid` (with the line and column of the syntax error); JSON that is not a
 * blueprint (no `flow` key: a manifest, a package file) is skipped; a blueprint the engine rejects is
 * `invalid`. Any invalid file makes the exit code 2. A leading byte order mark is ignored.
 */
export function scanFiles(files: readonly string[], options: ScanOptions, cwd = process.cwd()): FileResult[] {
  return files.map((path, index): FileResult => {
    const result = scanFile(path, options, cwd);
    options.onProgress?.(index + 1, files.length);
    return result;
  });
}

function scanFile(path: string, options: ScanOptions, cwd: string): FileResult {
  const file = path === STDIN_PATH ? STDIN_NAME : relative(cwd, path) || path;
  let text: string;
  try {
    text = readFileSync(path === STDIN_PATH ? 0 : path, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    return invalid(file, `cannot read: ${err instanceof Error ? err.message : String(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return invalid(file, `not valid JSON: ${syntaxMessage(err)}`, jsonErrorPosition(text, message));
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json) || !('flow' in json))
    return { file, kind: 'skipped', reason: 'not a blueprint (no "flow")' };
  const r = evaluateBlueprint(json, {
    scenarioId: file,
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.extraPolicies ? { extraPolicies: options.extraPolicies } : {}),
  });
  if (!r.ok) return { file, kind: 'invalid', error: r.error };
  const located = options.locate ? locateScan(text, json, r.evaluation) : null;
  // The text is dropped unless a report needs it: a scan of a thousand files keeps no thousand texts.
  return {
    file,
    kind: 'evaluated',
    evaluation: options.findingsOnly
      ? { ...r.evaluation, module_graph: { nodes: [], edges: [] }, module_summary: [], remediation: {} }
      : r.evaluation,
    ...(options.keepText ? { text } : {}),
    ...(located
      ? { locations: located.findings, moduleLocations: located.modules, placeLocations: located.places }
      : {}),
  };
}

/**
 * Exit code (documented in docs/scanner.md): 2 for an invalid file (unreadable, malformed JSON, or a blueprint the engine refuses), 1 for a violation at or
 * above `failOn` with a finding no waiver covers, else 0.
 */
export function exitCode(results: readonly WaivedResult[], failOn: Severity | 'none'): number {
  if (results.some((r) => r.kind === 'invalid')) return 2;
  if (failOn === 'none') return 0;
  const hit = results.some(
    (r) =>
      r.kind === 'evaluated' &&
      r.evaluation.violations.some(
        (v) => v.status === 'fail' && SEVERITY_RANK[v.severity] >= SEVERITY_RANK[failOn] && hasUnwaivedFinding(r, v),
      ),
  );
  return hit ? 1 : 0;
}
