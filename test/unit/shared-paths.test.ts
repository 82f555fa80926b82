/**
 * A user's clone has no `../shared` (issue 30): only the two modules that resolve it and guard its
 * absence may build a path to it: test/helpers/corpus.ts (the tests' corpora and the spec file) and
 * bench/lib/corpus-dir.ts (the benchmarks'), both honouring GOV_CORPUS_DIR and skipping when it is
 * absent (existsSync). Any other source that names `../shared` in code (comments
 * aside) fails here; `scripts/fresh-clone.mjs` (CI) runs the tests that reach the helper without it.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ALLOWED = new Set(['test/helpers/corpus.ts', 'bench/lib/corpus-dir.ts']);
/** Tests of that resolution, which name the default they expect. */
const CHECKS_THE_DEFAULT = new Set(['test/unit/bench-corpus-dir.test.ts']);
/** A string that starts a path into `../shared`, a URL to one, or `'..', 'shared'` path segments. */
const SHARED_PATH = /['"`](?:\.\.\/)+shared\b|new URL\(\s*['"`][^'"`]*\bshared\/|['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/;

/** The code of a source file without its comments (a `//` inside a string cuts the line short: fine here). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(?:ts|tsx|mjs|js)$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

it('names ../shared in code only in the corpus helper and the bench corpus folder', () => {
  const files = ['src', 'test', 'bench', 'scripts', 'bin', 'console/src', 'packages/sdk/src'].flatMap(sources);
  assert.ok(files.length > 300, `${files.length} sources`);
  const offenders = files.filter(
    (f) => !ALLOWED.has(f) && !CHECKS_THE_DEFAULT.has(f) && SHARED_PATH.test(code(readFileSync(join(ROOT, f), 'utf8'))),
  );
  assert.deepEqual(offenders, [], 'read ../shared through test/helpers/corpus.ts (corpusSuite) instead');
  for (const f of ALLOWED) assert.match(code(readFileSync(join(ROOT, f), 'utf8')), SHARED_PATH, `${f} resolves it`);
});
