#!/usr/bin/env node
/**
 * The fresh-clone check (issue 30), run by `.ci/run` after `npm test`: a user's clone has no
 * `../shared` beside it, and its `npm test` must still pass. Copies this checkout, built, into a
 * temporary directory with nothing beside it (`node_modules` linked, not copied), then runs there
 * every test file that reaches the corpus helper (test/helpers/corpus.ts, the one test module that
 * knows where `../shared` is), with `GOV_CORPUS_DIR` unset. Passes when they all pass with no
 * failure and no cancellation; prints the one line each skipped suite gives. A test that reads
 * `../shared` without `corpusSuite` fails here with ENOENT. (A test that builds a path to
 * `../shared` itself is refused earlier, by test/unit/shared-paths.test.ts.)
 *
 * Usage: node scripts/fresh-clone.mjs   (after `npm run build`; exit 0 pass, 1 fail, 2 not built)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HELPER = join(ROOT, 'dist/test/helpers/corpus.js');
/** Left out of the copy: installed packages (linked instead), git, and data of local runs. */
const EXCLUDE = ['node_modules', '.git', 'data', 'cluster-data', 'bench/results'];

/** Every `.js` file under `dir`. */
function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

/** The test files under dist/test that import `target`, directly or through other modules of dist/. */
function importersOf(target) {
  const importers = new Map(); // module -> modules that import it
  for (const file of jsFiles(join(ROOT, 'dist'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = resolve(dirname(file), m[1]);
      if (!importers.has(to)) importers.set(to, []);
      importers.get(to).push(file);
    }
  }
  const seen = new Set([target]);
  const queue = [target];
  while (queue.length > 0)
    for (const from of importers.get(queue.pop()) ?? [])
      if (!seen.has(from)) {
        seen.add(from);
        queue.push(from);
      }
  return [...seen].filter((f) => f.endsWith('.test.js')).sort();
}

if (!existsSync(HELPER)) {
  process.stderr.write('fresh-clone: not built (run `npm run build` first)\n');
  process.exit(2);
}
const files = importersOf(HELPER).map((f) => relative(ROOT, f));
const base = mkdtempSync(join(tmpdir(), 'gov-fresh-clone-'));
const copy = join(base, 'repository');
try {
  mkdirSync(copy);
  const tar = spawnSync(
    'bash',
    ['-c', `tar -C "$1" ${EXCLUDE.map((e) => `--exclude=./${e}`).join(' ')} -cf - . | tar -C "$2" -xf -`, '-', ROOT, copy],
    { stdio: 'inherit' },
  );
  if (tar.status !== 0) throw new Error('copying the checkout failed');
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  process.stdout.write(
    `fresh-clone: ${files.length} test files reach test/helpers/corpus.ts; running them in ${copy}, with no ../shared beside it\n`,
  );
  const env = { ...process.env };
  delete env['GOV_CORPUS_DIR'];
  const run = spawnSync(
    process.execPath,
    ['--test', '--test-concurrency=2', '--test-timeout=120000', '--test-reporter=tap', ...files],
    { cwd: copy, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const tap = run.stdout ?? '';
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? NaN);
  const [tests, pass, fail, cancelled, skipped] = ['tests', 'pass', 'fail', 'cancelled', 'skipped'].map(count);
  for (const line of tap.split('\n')) if (/^\s*ok \d+ - .* # SKIP /.test(line)) process.stdout.write(`  ${line.trim()}\n`);
  process.stdout.write(
    `fresh-clone: ${tests} tests, ${pass} pass, ${fail} fail, ${cancelled} cancelled, ${skipped} skipped\n`,
  );
  if (run.status !== 0 || fail !== 0 || cancelled !== 0 || !(pass > 0)) {
    for (const line of tap.split('\n')) if (/^\s*not ok /.test(line) || /ENOENT/.test(line)) process.stdout.write(`  ${line.trim()}\n`);
    process.stdout.write(run.stderr ?? '');
    process.stdout.write('fresh-clone: FAILED: a test needs ../shared without corpusSuite (test/helpers/corpus.ts)\n');
    process.exitCode = 1;
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
