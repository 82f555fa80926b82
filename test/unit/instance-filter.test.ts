/** withInstanceFilter: the `$instance` matcher lands in every vector selector and nowhere else. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INSTANCE_MATCHER, UnsupportedPromQL, withInstanceFilter } from '../../src/ops/instance-filter.js';

const I = INSTANCE_MATCHER;

describe('withInstanceFilter', () => {
  const cases: [string, string][] = [
    ['gov_pool_workers', `gov_pool_workers{${I}}`],
    ['up{job="gov"}', `up{${I},job="gov"}`],
    ['up {job="gov"} == 0', `up{${I},job="gov"} == 0`],
    ['a{}', `a{${I}}`],
    ['a / b', `a{${I}} / b{${I}}`],
    [
      'sum by (le, route) (rate(x_bucket{a="}",b=~"[5m]"}[5m]))',
      `sum by (le, route) (rate(x_bucket{${I},a="}",b=~"[5m]"}[5m]))`,
    ],
    [
      'histogram_quantile(0.99, sum without (pod) (rate(h_bucket[5m:1m])))',
      `histogram_quantile(0.99, sum without (pod) (rate(h_bucket{${I}}[5m:1m])))`,
    ],
    [
      '(sum(rate(a[5m])) or vector(0)) / sum(rate(a[5m])) > 1e-3',
      `(sum(rate(a{${I}}[5m])) or vector(0)) / sum(rate(a{${I}}[5m])) > 1e-3`,
    ],
    ['a and on (instance) b unless ignoring(x) c', `a{${I}} and on (instance) b{${I}} unless ignoring(x) c{${I}}`],
    ['a * on (i) group_left (version) gov_build_info', `a{${I}} * on (i) group_left (version) gov_build_info{${I}}`],
    ['rate(a[5m] offset 1h30m) > bool 0.5', `rate(a{${I}}[5m] offset 1h30m) > bool 0.5`],
    [
      'topk(5, a) + count_values("v", b) + max(c) > Inf',
      `topk(5, a{${I}}) + count_values("v", b{${I}}) + max(c{${I}}) > Inf`,
    ],
    ["label_replace(a, 'dst', '$1', 'src', '(.*)')", `label_replace(a{${I}}, 'dst', '$1', 'src', '(.*)')`],
    ['a:recorded:rate5m', `a:recorded:rate5m{${I}}`],
  ];
  for (const [input, expected] of cases)
    it(input, () => {
      assert.equal(withInstanceFilter(input), expected);
    });

  it('takes another matcher', () => {
    assert.equal(withInstanceFilter('a / b{x="1"}', 'job="j"'), 'a{job="j"} / b{job="j",x="1"}');
  });

  it('refuses what it does not understand rather than guess', () => {
    for (const bad of ['{__name__="a"}', 'a{x="1}', 'rate(a[5m)', 'a{x="1"'])
      assert.throws(() => withInstanceFilter(bad), UnsupportedPromQL, bad);
  });
});
