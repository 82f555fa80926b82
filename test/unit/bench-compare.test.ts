/** bench/lib/compare: rows of a results table matched to a previous run's and their change. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareRows, parseResultRows } from '../../bench/lib/compare.js';

const COMMITTED = `# Performance

| scenario | target | measured | met | detail |
|---|---|---|---|---|
| 1 Signed reads | ≥ 0.6 × bare uWS | 0.61 | yes | signed 53928 req/s |
| 4 Fleet | RSS < 400 MB | 359 MB | yes | 10000 scenarios |
| 5 Soak | zero 5xx | 0 | yes | statuses |
`;

describe('bench result comparison', () => {
  it('reads the rows of a results table and skips its header, rule and prose', () => {
    assert.deepEqual(parseResultRows(COMMITTED), [
      { scenario: '1 Signed reads', target: '≥ 0.6 × bare uWS', measured: '0.61' },
      { scenario: '4 Fleet', target: 'RSS < 400 MB', measured: '359 MB' },
      { scenario: '5 Soak', target: 'zero 5xx', measured: '0' },
    ]);
  });

  it('prints each figure beside the committed one, with the change, and marks new rows', () => {
    const now = parseResultRows(
      [
        '| 1 Signed reads | ≥ 0.6 × bare uWS | 0.45 | **no** | x |',
        '| 4 Fleet | RSS < 400 MB | 440 MB | **no** | y |',
        '| 5 Soak | zero 5xx | 0 | yes | z |',
        '| 20 Access log cost | CPU per request, log on ÷ off ≤ 1.05 | 1.07 | **no** | w |',
      ].join('\n'),
    );
    assert.deepEqual(compareRows(now, parseResultRows(COMMITTED)), [
      '1 Signed reads: ≥ 0.6 × bare uWS: was 0.61 → now 0.45 (-26%)',
      '4 Fleet: RSS < 400 MB: was 359 MB → now 440 MB (+23%)',
      '5 Soak: zero 5xx: was 0 → now 0',
      '20 Access log cost: CPU per request, log on ÷ off ≤ 1.05: now 1.07 (new)',
    ]);
  });
});
