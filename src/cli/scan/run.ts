/** @module cli/scan/run: collects blueprint files and evaluates them with the engine. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GovernanceSettingsBody, Policy, Severity } from '../../engine/index.js';
import type { FileResult } from './file-result.js';

export type { FileResult } from './file-result.js';
import { SEVERITY_RANK, evaluateBlueprint } from '../../engine/index.js';
import { hasUnwaivedFinding, type WaivedResult } from './waivers.js';

/** Scan options. */
export interface ScanOptions {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** Organization settings (`--settings`, issue 17). */
  readonly settings?: GovernanceSettingsBody;
  /** Custom rules compiled (`--rules`, issue 17). */
  readonly extraPolicies?: readonly Policy[];
}

/** Expands files and directories (recursively, `*.json`, sorted) into file paths. @throws Error for a missing path. */
export function collectFiles(paths: readonly string[]): string[] {
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
    if (statSync(p).isDirectory()) {
      const before = out.length;
      walk(p);
      out.splice(before, out.length - before, ...out.slice(before).filter((f) => f.endsWith('.json')));
    } else {
      out.push(p);
    }
  }
  return out;
}

/**
 * Evaluates each file. JSON that is not a blueprint (no `flow` key: a manifest, a package file) is
 * skipped; a blueprint the engine rejects is `invalid` (exit code 2).
 */
export function scanFiles(files: readonly string[], options: ScanOptions, cwd = process.cwd()): FileResult[] {
  return files.map((path): FileResult => {
    const file = relative(cwd, path) || path;
    let text: string;
    let json: unknown;
    try {
      text = readFileSync(path, 'utf8');
      json = JSON.parse(text);
    } catch (err) {
      return {
        file,
        kind: 'skipped',
        reason: `not readable JSON: ${err instanceof Error ? err.message : String(err)}`,
      };
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
  });
}

/**
 * Exit code (documented in docs/scanner.md): 2 for an invalid blueprint, 1 for a violation at or
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
