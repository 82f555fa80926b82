/** @module cli/scan/run: collects blueprint files and evaluates them with the engine. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GovernanceSettingsBody, Policy, Severity } from '../../engine/index.js';
import type { FileResult } from './file-result.js';
import type { TextPosition } from './json-position.js';

export type { FileResult } from './file-result.js';
import { SEVERITY_RANK, evaluateBlueprint } from '../../engine/index.js';
import { hasUnwaivedFinding, type WaivedResult } from './waivers.js';
import { jsonErrorPosition } from './json-position.js';

/** Scan options. */
export interface ScanOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** Organization settings (`--settings`, issue 17). */
  readonly settings?: GovernanceSettingsBody;
  /** Custom rules compiled (`--rules`, issue 17). */
  readonly extraPolicies?: readonly Policy[];
  /** Called after each file with the count done and the total (the CLI's progress line on a TTY). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** The path that means standard input (`gov scan -`), and the name its result is reported under. */
export const STDIN_PATH = '-';
export const STDIN_NAME = '<stdin>';

/**
 * Expands files and directories (recursively, `*.json`, sorted) into file paths; `-` (standard
 * input) is kept as is. @throws Error for a missing path or `-` given twice (usage errors, exit 2).
 */
export function collectFiles(paths: readonly string[]): string[] {
  if (paths.filter((p) => p === STDIN_PATH).length > 1) throw new Error('"-" (standard input) can be given once');
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory())
      for (const name of readdirSync(p).sort()) {
        if (!name.startsWith('.') && name !== 'node_modules') walk(join(p, name));
      }
    else out.push(p);
  };
  for (const p of paths) {
    if (p === STDIN_PATH) out.push(p);
    else if (statSync(p).isDirectory()) {
      const before = out.length;
      walk(p);
      out.splice(before, out.length - before, ...out.slice(before).filter((f) => f.endsWith('.json')));
    } else {
      out.push(p);
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

function invalid(file: string, text: string, message: string, position?: TextPosition): FileResult {
  return {
    file,
    text,
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
    return invalid(file, '', `cannot read: ${err instanceof Error ? err.message : String(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return invalid(file, text, `not valid JSON: ${syntaxMessage(err)}`, jsonErrorPosition(text, message));
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
  return r.ok
    ? { file, text, kind: 'evaluated', evaluation: r.evaluation }
    : { file, text, kind: 'invalid', error: r.error };
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
