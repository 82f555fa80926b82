/** bench/lib/corpus-dir and the corpus rows of bench/lib/scenarios: where the corpora are, what a run without them skips (issue 30, item 3). */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir, corpusRoot, missingCorpora } from '../../bench/lib/corpus-dir.js';
import { BENCH_SCENARIOS, corpusSkips } from '../../bench/lib/scenarios.js';

/** The repository's root (this file runs as dist/test/unit/*.js). */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'gov-corpus-dir-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench corpus directory', () => {
  it('is <repo>/../shared/corpus when GOV_CORPUS_DIR is unset or empty', () => {
    const shared = resolve(REPO, '..', 'shared', 'corpus');
    assert.equal(corpusRoot({}), shared);
    assert.equal(corpusRoot({ GOV_CORPUS_DIR: '' }), shared);
    assert.equal(corpusDir('make', {}), join(shared, 'make'));
  });

  it('is GOV_CORPUS_DIR, the folder containing make/ and make-extra/, resolved from the working directory', () => {
    assert.equal(corpusRoot({ GOV_CORPUS_DIR: '/data/corpora' }), '/data/corpora');
    assert.equal(corpusDir('make', { GOV_CORPUS_DIR: '/data/corpora/' }), '/data/corpora/make');
    assert.equal(corpusDir('make-extra', { GOV_CORPUS_DIR: '/data/corpora' }), '/data/corpora/make-extra');
    assert.equal(corpusRoot({ GOV_CORPUS_DIR: 'corpora' }), resolve(process.cwd(), 'corpora'));
  });

  it('reports the corpus folders that do not exist', () => {
    const root = join(tmp, 'partial');
    mkdirSync(join(root, 'make'), { recursive: true });
    const env = { GOV_CORPUS_DIR: root };
    assert.deepEqual(missingCorpora(['make', 'make-extra'], env), [join(root, 'make-extra')]);
    assert.deepEqual(missingCorpora(['make'], env), []);
  });
});

describe('bench rows without the corpus', () => {
  it('skips the corpus rows of every selected scenario with one line naming the folders and GOV_CORPUS_DIR', () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    const s = corpusSkips(BENCH_SCENARIOS, { GOV_CORPUS_DIR: empty });
    assert.deepEqual([...s.skipped], ['engine', 'batches', 'scan-sarif']);
    assert.equal(
      s.line,
      `corpus rows skipped (Engine (issue 3), 20 Batches CPU (corpus), 19 gov scan SARIF): ${empty}/make, ${empty}/make-extra not found (set GOV_CORPUS_DIR to the folder holding make/ and make-extra/); inline uses the median blueprint of examples/ instead`,
    );
  });

  it('names only the folders and rows of the scenarios selected', () => {
    const root = join(tmp, 'make-only');
    mkdirSync(join(root, 'make'), { recursive: true });
    const s = corpusSkips(['engine', 'scan-sarif'], { GOV_CORPUS_DIR: root });
    assert.deepEqual([...s.skipped], ['scan-sarif']);
    assert.equal(
      s.line,
      `corpus rows skipped (19 gov scan SARIF): ${root}/make-extra not found (set GOV_CORPUS_DIR to the folder holding make/ and make-extra/)`,
    );
    const inline = corpusSkips(['inline', 'soak'], { GOV_CORPUS_DIR: join(tmp, 'none') });
    assert.deepEqual([...inline.skipped], []);
    assert.match(
      inline.line ?? '',
      /^corpus: .*\/none\/make not found \(set GOV_CORPUS_DIR .*\); inline uses the median blueprint of examples\/ instead$/,
    );
  });

  it('skips nothing and says nothing when the corpora are there, or when no selected scenario reads them', () => {
    const root = join(tmp, 'full');
    mkdirSync(join(root, 'make'), { recursive: true });
    mkdirSync(join(root, 'make-extra'), { recursive: true });
    assert.deepEqual(corpusSkips(BENCH_SCENARIOS, { GOV_CORPUS_DIR: root }), { skipped: new Set(), line: null });
    assert.deepEqual(corpusSkips(['soak', 'fleet'], { GOV_CORPUS_DIR: join(tmp, 'none') }), {
      skipped: new Set(),
      line: null,
    });
  });
});
