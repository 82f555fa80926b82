/**
 * `gov scan`'s path arguments (src/cli/scan/run.ts `collectFiles`): directories recurse, globs
 * select files, `--exclude` globs leave paths out (a directory matching one is not entered), and a
 * missing path or a glob matching nothing is a usage error. Also the GitHub SARIF mappings
 * (src/cli/scan/sarif-properties.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PathArgumentError, collectFiles } from '../../src/cli/scan/run.js';
import { docBase, helpUri, precisionOf } from '../../src/cli/scan/sarif-properties.js';

describe('collectFiles', () => {
  let dir: string;
  const files = [
    'a.json',
    'notes.txt',
    'flows/orders.json',
    'flows/orders.draft.json',
    'flows/deep/er/billing.json',
    'flows/fixtures/sample.json',
    'flows/.hidden/secret.json',
    'flows/node_modules/dep/package.json',
    'other/x.json',
  ];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-collect-'));
    for (const f of files) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), '{}');
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const collect = (paths: string[], exclude: string[] = []) =>
    collectFiles(paths, { cwd: dir, exclude }).map((f) => relative(dir, f));

  it('recurses into directories for *.json, sorted, skipping hidden entries and node_modules', () => {
    assert.deepEqual(collect(['flows']), [
      'flows/deep/er/billing.json',
      'flows/fixtures/sample.json',
      'flows/orders.draft.json',
      'flows/orders.json',
    ]);
    assert.deepEqual(collect(['.']).length, 6);
  });

  it('expands globs (gov expands them when quoted) and takes a named file as is', () => {
    assert.deepEqual(collect(['flows/**/*.json']), [
      'flows/deep/er/billing.json',
      'flows/fixtures/sample.json',
      'flows/orders.draft.json',
      'flows/orders.json',
    ]);
    assert.deepEqual(collect(['*/orders.json', 'notes.txt']), ['flows/orders.json', 'notes.txt']);
    assert.deepEqual(collect(['{a,other/x}.json']), ['a.json', 'other/x.json']);
  });

  it('leaves out paths matching --exclude globs; a glob without "/" matches a name anywhere', () => {
    assert.deepEqual(collect(['.'], ['flows/fixtures/**', '*.draft.json']), [
      'a.json',
      'flows/deep/er/billing.json',
      'flows/orders.json',
      'other/x.json',
    ]);
    assert.deepEqual(collect(['flows'], ['deep']), [
      'flows/fixtures/sample.json',
      'flows/orders.draft.json',
      'flows/orders.json',
    ]);
    assert.deepEqual(collect(['flows/**/*.json'], ['**/fixtures/**', '**/deep/**']), [
      'flows/orders.draft.json',
      'flows/orders.json',
    ]);
    assert.deepEqual(collect(['a.json', 'other'], ['other']), ['a.json'], 'an excluded argument is left out');
  });

  it('refuses a missing path, a glob that matches nothing, and "-" twice (usage errors)', () => {
    assert.throws(() => collect(['missing.json']), PathArgumentError);
    assert.throws(() => collect(['nowhere/**/*.json']), /no file matches nowhere\/\*\*\/\*\.json/);
    assert.throws(() => collect(['-', '-']), PathArgumentError);
    assert.deepEqual(collectFiles(['-'], { cwd: dir }), ['-']);
  });
});

describe('GitHub SARIF properties', () => {
  it('maps measured precision to GitHub precision levels', () => {
    assert.equal(precisionOf({ labelled: 47, precision: 1 }), 'very-high');
    assert.equal(precisionOf({ labelled: 9, precision: 1 }), 'high');
    assert.equal(precisionOf({ labelled: 20, precision: 0.92 }), 'high');
    assert.equal(precisionOf({ labelled: 20, precision: 0.8 }), 'medium');
    assert.equal(precisionOf({ labelled: 20, precision: 0.5 }), 'low');
    assert.equal(precisionOf({ labelled: 2, precision: 1 }), 'medium', 'too few labelled findings');
    assert.equal(precisionOf({ labelled: 0, precision: null }), 'medium');
    assert.equal(precisionOf(undefined), 'medium', 'a custom rule');
  });

  it('builds help URIs from --doc-base, else GOV_DOC_BASE, else none (no file: URL of the checkout)', () => {
    const base = docBase('https://git.example.org/gov/blob/v1/docs/policies', {})!;
    assert.equal(helpUri(base, 'SEC-1'), 'https://git.example.org/gov/blob/v1/docs/policies/SEC-1.md');
    assert.equal(helpUri(base, 'ORG-3'), 'https://git.example.org/gov/blob/v1/docs/custom-rules.md');
    assert.equal(
      helpUri(docBase(undefined, { GOV_DOC_BASE: 'https://docs.example.org/p/' })!, 'DI-1'),
      'https://docs.example.org/p/DI-1.md',
    );
    assert.equal(docBase(undefined, {}), undefined);
    assert.equal(docBase(undefined, { GOV_DOC_BASE: '' }), undefined);
    assert.throws(() => docBase('not a url', {}), TypeError);
  });
});
