/** bench/lib/scenarios: the registry of `npm run bench`, its command line, and the docs that name it (issue 30, item 1). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BENCH_SCENARIOS, parseBenchArgs } from '../../bench/lib/scenarios.js';

const ROOT = new URL('../../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const BENCHMARKS_DOC = readFileSync(new URL('docs/benchmarks.md', ROOT), 'utf8');
const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** The README's "## Benchmarks" section, up to the next level-2 heading. */
function readmeBenchmarks(): string {
  const start = README.indexOf('\n## Benchmarks\n');
  assert.ok(start >= 0, 'README has a "## Benchmarks" section');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

describe('bench scenario registry and its docs', () => {
  it("the README's Benchmarks section names every scenario of the registry, in run order, and their number", () => {
    const section = readmeBenchmarks();
    const list = /# some of: ([a-z -]+)$/m.exec(section);
    assert.ok(list, 'the README lists the scenarios after "# some of:"');
    assert.deepEqual(list[1]!.trim().split(/\s+/), [...BENCH_SCENARIOS]);
    assert.match(section, new RegExp(`all ${NUMBER_WORDS[BENCH_SCENARIOS.length]} scenarios`));
  });

  it('docs/benchmarks.md names every scenario of the registry, in run order, and their number', () => {
    const at = BENCHMARKS_DOC.indexOf('runs some of');
    assert.ok(at >= 0, 'docs/benchmarks.md says which scenarios `npm run bench -- <name...>` runs');
    const sentence = BENCHMARKS_DOC.slice(at, BENCHMARKS_DOC.indexOf('(', at));
    assert.deepEqual(
      [...sentence.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]),
      [...BENCH_SCENARIOS],
    );
    assert.match(BENCHMARKS_DOC, new RegExp(`runs all ${NUMBER_WORDS[BENCH_SCENARIOS.length]} scenarios`));
  });

  it('run times are stated in docs/benchmarks.md only, so the README cannot contradict them', () => {
    assert.doesNotMatch(readmeBenchmarks(), /\d\s*(?:s|min|minutes|seconds)\b|~\s*\d/);
  });

  it('reads scenario names and --quick, in run order, all scenarios when none is named', () => {
    assert.deepEqual(parseBenchArgs([]), { names: BENCH_SCENARIOS, quick: false });
    assert.deepEqual(parseBenchArgs(['--quick']), { names: BENCH_SCENARIOS, quick: true });
    assert.deepEqual(parseBenchArgs(['soak', '--quick', 'engine']), { names: ['engine', 'soak'], quick: true });
  });

  it('refuses an unknown scenario or option with the known names (a typo used to run nothing)', () => {
    assert.throws(() => parseBenchArgs(['engine', 'signed-read']), {
      message: `unknown argument 'signed-read': name scenarios among ${BENCH_SCENARIOS.join(', ')}, or --quick`,
    });
    assert.throws(() => parseBenchArgs(['--full']), /unknown argument '--full'/);
  });
});
