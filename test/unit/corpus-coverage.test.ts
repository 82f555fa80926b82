/**
 * The parser sees every module of every blueprint of every corpus (issue 32 §1, "Done when"): its
 * modules are exactly those an independent walk finds (a plain recursive walk over every object with
 * `id` and `module` under `flow`, `routes`, `onerror`, `branches`, `tools` and
 * `metadata.designer.orphans`), at the same pointers, and their number outside the orphans is the
 * `modules` column of the corpus MANIFEST.md where it has one (the orphans are not in that count).
 */
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../src/engine/index.js';
import { REAL_CORPUS_SIZE, corpusFacts, corpusJson, corpusText, eachCorpus } from '../helpers/corpus.js';

/** Keys under which Make keeps modules or lists of flows. */
const CONTAINER_KEYS = ['flow', 'routes', 'onerror', 'branches', 'tools'];

/** Pointers of every module object below `value` (`at` its pointer), walking only container keys. */
function walk(value: unknown, at: string, out: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${at}/${i}`, out));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  if ('id' in o && typeof o['module'] === 'string') out.push(at);
  for (const key of CONTAINER_KEYS) if (key in o) walk(o[key], `${at}/${key}`, out);
}

/** Every module pointer of a blueprint by the independent walk: the flow, then the orphans. */
function modulesByWalk(blueprint: unknown): string[] {
  const out: string[] = [];
  const root = blueprint as Record<string, unknown>;
  walk(root['flow'], '/flow', out);
  const metadata = root['metadata'] as Record<string, unknown> | undefined;
  const designer = metadata?.['designer'] as Record<string, unknown> | undefined;
  walk(designer?.['orphans'], '/metadata/designer/orphans', out);
  return out;
}

/**
 * The `modules` column of a corpus MANIFEST.md table, by file (empty when the manifest has none). The
 * column follows the snapshot's commit and the licence; it is found from the commit because a
 * repository path may hold a `|`.
 */
function manifestModules(text: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!/\|\s*commit \(snapshot HEAD\)\s*\|\s*licence\s*\|\s*modules \(all/.test(text)) return out;
  for (const row of text.split('\n')) {
    const m = /^\|\s*(\S+\.blueprint\.json)\s*\|.*?\|\s*[0-9a-f]{12}\s*\|[^|]*\|\s*(\d+)\s*\|/.exec(row);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

eachCorpus('the parser sees every module', ['fixtures', 'make', 'make-extra', 'make-more'], (corpus, { it }) => {
  it('equal to an independent walk of flow, routes, onerror, branches, tools and orphans, and to the MANIFEST count', (t) => {
    const facts = corpusFacts(corpus);
    if (corpus !== 'fixtures') assert.equal(facts.length, REAL_CORPUS_SIZE[corpus]);
    const manifest =
      corpus === 'fixtures' ? new Map<string, number>() : manifestModules(corpusText('MANIFEST.md', corpus));
    if (corpus !== 'fixtures') assert.equal(manifest.size, facts.length, 'a MANIFEST row per blueprint');
    const byContainer = new Map<string, number>();
    let total = 0;
    for (const f of facts) {
      const blueprint = corpusJson(f.file, corpus);
      const r = parseBlueprint(blueprint);
      assert.ok(r.ok, `${f.file}: ${r.ok ? '' : JSON.stringify(r.error)}`);
      const parsed = r.graph.modules.map((m) => m.pointer);
      assert.deepEqual([...parsed].sort(), modulesByWalk(blueprint).sort(), f.file);
      assert.equal(new Set(r.graph.modules.map((m) => m.id)).size, parsed.length, `${f.file}: ids unique`);
      const listed = manifest.get(f.file);
      if (listed !== undefined)
        assert.equal(r.graph.modules.filter((m) => m.container !== 'orphan').length, listed, `${f.file}: MANIFEST`);
      for (const m of r.graph.modules) byContainer.set(m.container, (byContainer.get(m.container) ?? 0) + 1);
      total += parsed.length;
    }
    t.diagnostic(`${corpus}: ${total} modules, ${[...byContainer].map(([c, n]) => `${c} ${n}`).join(', ')}`);
    // Each corpus holds modules beyond routes and error handlers, except `make` (none in its exports).
    if (corpus !== 'make')
      assert.ok(
        ['branch', 'tool', 'orphan'].some((c) => (byContainer.get(c) ?? 0) > 0),
        'no branch, tool or orphan module',
      );
  });
});
