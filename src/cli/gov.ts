#!/usr/bin/env node
/**
 * @module cli/gov: the offline scanner, `gov scan <files or dirs...>` (also `npm run scan --`).
 * Evaluates blueprints locally with the same engine as the service. Exit codes (docs/scanner.md):
 * 0 no violation at or above --fail-on; 1 at least one; 2 a usage or input error (an unreadable
 * file, malformed JSON, an invalid blueprint).
 */
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Severity } from '../engine/index.js';
import { CATALOG_REVISION, POLICY_BY_CODE, SEVERITY_RANK } from '../engine/index.js';
import { collectFiles, exitCode, scanFiles, type FileResult } from './scan/run.js';
import { baselineOf, readBaseline, withoutBaselined } from './scan/baseline.js';
import { applyWaivers, readWaivers, type WaivedResult } from './scan/waivers.js';
import { readRules, readSettings } from './scan/governance-files.js';
import { formatTable } from './scan/format-table.js';
import { progressLine } from './scan/progress.js';
import { formatJson } from './scan/format-json.js';
import { sarifChunks } from './scan/format-sarif.js';
import { formatJunit } from './scan/format-junit.js';
import { formatHtml } from './scan/format-html.js';
import { DOC_BASE_ENV, docBase } from './scan/sarif-properties.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function codes(text: string): string[] {
  const list = text
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  for (const c of list)
    if (!POLICY_BY_CODE.has(c) && !/^ORG-\d{1,6}$/.test(c)) throw new InvalidArgumentError(`unknown policy ${c}`);
  return list;
}

/** The waiver file read when `--waivers` is not given, from the working directory. */
const DEFAULT_WAIVERS = '.govignore.yaml';

/**
 * The documentation base of `--doc-base` or the environment; undefined when neither is set (the SARIF
 * log then has no `helpUri`). @throws Error (exit 2, its message printed) for a value that is not a URL.
 */
function documentationBase(option: string | undefined): URL | undefined {
  try {
    return docBase(option);
  } catch {
    throw new Error(
      `--doc-base / ${DOC_BASE_ENV} must be an absolute URL (got "${option ?? process.env[DOC_BASE_ENV]}")`,
    );
  }
}

/** Builds the CLI (exported for tests). */
export function buildGov(): Command {
  const program = new Command('gov')
    .description('Governance Evaluation Service: offline scanner for Make.com blueprints')
    .version(
      `${VERSION} (policy catalog ${CATALOG_REVISION})`,
      '-V, --version',
      'print the version and the policy catalog revision',
    )
    .exitOverride();
  program
    .command('scan')
    .description(
      'evaluate blueprint files, directories (*.json, recursively) or quoted globs; - reads one blueprint from stdin',
    )
    .argument(
      '<paths...>',
      'files, directories (searched for *.json), quoted globs (e.g. "flows/**/*.json"), or - for stdin',
    )
    .addOption(
      new Option('-f, --format <format>', 'output format')
        .choices(['table', 'json', 'sarif', 'junit', 'html'])
        .default('table'),
    )
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a failing violation has this severity or worse')
        .choices([...Object.keys(SEVERITY_RANK), 'none'])
        .default('high'),
    )
    .option('--policy <codes>', 'only these policies (comma-separated)', codes)
    .option('--skip-policy <codes>', 'skip these policies (comma-separated)', codes)
    .option(
      '--exclude <glob>',
      'leave out paths matching this glob (repeatable; a glob without / matches a name anywhere)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--doc-base <url>',
      `SARIF: URL the policy pages (docs/policies/<code>.md) are served under, for each rule's helpUri; default $${DOC_BASE_ENV}, else no helpUri (each rule's help carries its page)`,
    )
    .option('-q, --quiet', 'table format: print only findings (no clean or skipped files, no summary)')
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--baseline <file>', 'report only findings whose fingerprints are not in this baseline file')
    .option('--write-baseline <file>', "write the fingerprints of this scan's findings to a baseline file")
    .option('--waivers <file>', `waiver file (reason and expiry per entry); default ${DEFAULT_WAIVERS} when present`)
    .option('--rules <file>', 'custom rules (as GET /governance/rules returns them, or an array of rule bodies)')
    .option('--settings <file>', 'organization settings (as GET /governance/settings returns them, or a settings body)')
    .action(
      async (
        paths: string[],
        o: {
          format: string;
          failOn: Severity | 'none';
          policy?: string[];
          skipPolicy?: string[];
          output?: string;
          quiet?: boolean;
          exclude?: string[];
          docBase?: string;
          baseline?: string;
          writeBaseline?: string;
          waivers?: string;
          rules?: string;
          settings?: string;
        },
      ) => {
        const extraPolicies = o.rules ? readRules(o.rules) : [];
        const settings = o.settings ? readSettings(o.settings, extraPolicies) : undefined;
        const base = o.format === 'sarif' ? documentationBase(o.docBase) : undefined;
        const onProgress = progressLine(process.stderr);
        const scanned = scanFiles(collectFiles(paths, { exclude: o.exclude ?? [] }), {
          ...(onProgress ? { onProgress } : {}),
          keepText: o.format === 'html',
          locate: o.format === 'sarif',
          findingsOnly: o.format === 'sarif',
          ...(o.policy ? { include: o.policy } : {}),
          ...(o.skipPolicy ? { exclude: o.skipPolicy } : {}),
          ...(settings ? { settings } : {}),
          ...(extraPolicies.length > 0 ? { extraPolicies } : {}),
        });
        if (o.writeBaseline)
          writeFileSync(o.writeBaseline, `${JSON.stringify(baselineOf(scanned, `gov ${VERSION}`), null, 2)}\n`);
        let baselined: FileResult[] = scanned;
        if (o.baseline) {
          const filtered = withoutBaselined(scanned, readBaseline(o.baseline));
          baselined = filtered.results;
          process.stderr.write(`gov: ${filtered.baselined} finding(s) in the baseline ${o.baseline} not reported\n`);
        }
        let results: WaivedResult[] = baselined;
        const waiverFile = o.waivers ?? (existsSync(DEFAULT_WAIVERS) ? DEFAULT_WAIVERS : undefined);
        if (waiverFile) {
          const applied = applyWaivers(baselined, readWaivers(waiverFile), Date.now());
          results = applied.results;
          process.stderr.write(`gov: ${applied.waivedCount} finding(s) waived by ${waiverFile}\n`);
          for (const w of applied.expired)
            process.stderr.write(
              `gov: expired waiver in ${waiverFile}: ${w.policy}${w.file ? ` ${w.file}` : ''}${w.module ? ` module ${w.module}` : ''} (expired after ${w.expires}; ${w.reason})\n`,
            );
        }
        if (o.format === 'sarif') {
          // Written in pieces of about 1 MB as they are made; on stdout each waits until the previous
          // one is taken (a pipe to a slow reader would otherwise queue the whole log in memory).
          const fd = o.output ? openSync(o.output, 'w') : undefined;
          const flush = async (text: string): Promise<void> => {
            if (fd !== undefined) writeSync(fd, text);
            else if (!process.stdout.write(text)) await once(process.stdout, 'drain');
          };
          try {
            let pending = '';
            for (const chunk of sarifChunks(results, { version: VERSION, docBase: base, extraPolicies })) {
              pending += chunk;
              if (pending.length >= 1 << 20) {
                await flush(pending);
                pending = '';
              }
            }
            await flush(pending);
          } finally {
            if (fd !== undefined) closeSync(fd);
          }
          process.exitCode = exitCode(results, o.failOn);
          return;
        }
        const report =
          o.format === 'json'
            ? formatJson(results)
            : o.format === 'junit'
              ? formatJunit(results)
              : o.format === 'html'
                ? formatHtml(results, VERSION)
                : formatTable(results, { quiet: o.quiet ?? false });
        if (o.output) writeFileSync(o.output, report);
        else process.stdout.write(report);
        process.exitCode = exitCode(results, o.failOn);
      },
    );
  return program;
}

try {
  await buildGov().parseAsync(process.argv);
} catch (err) {
  const e = err as { code?: string; exitCode?: number; message?: string };
  if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') process.exit(0);
  if (!e.code?.startsWith('commander.')) process.stderr.write(`gov: ${e.message ?? String(err)}\n`);
  process.exit(2);
}
