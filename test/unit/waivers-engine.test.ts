/** engine/waivers: what a waiver takes out of an evaluation, and what it leaves. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint, type ScenarioEvaluation } from '../../src/engine/index.js';
import { applyWaivers, type ActiveWaiver } from '../../src/engine/waivers.js';
import { contribution, violationStats } from '../../src/actors/outcome.js';
import { bp, m } from '../helpers/blueprints.js';

/**
 * Two unhandled Sheets writes (DI-1 on modules 2 and 3, both medium: incomplete executions are not
 * stored, so the last one is not lowered) and default labels (ARC-4, a warn).
 */
function evaluation(): ScenarioEvaluation {
  const r = evaluateBlueprint(
    bp([m(1, 'http:ActionSendData'), m(2, 'google-sheets:addRow'), m(3, 'google-sheets:addRow')], { dlq: false }),
    {
      scenarioId: 's1',
    },
  );
  assert.ok(r.ok);
  return r.evaluation;
}

const waiver = (over: Partial<ActiveWaiver>): ActiveWaiver => ({
  waiver_id: 'wvr_1',
  policy: 'DI-1',
  fingerprint: null,
  module_id: null,
  expires_at: '2027-01-01T00:00:00.000Z',
  ...over,
});

describe('applyWaivers', () => {
  it('changes nothing without a matching waiver', () => {
    const ev = evaluation();
    const out = applyWaivers(ev, [waiver({ policy: 'SEC-1' })]);
    assert.equal(out.score, ev.score);
    assert.equal(out.violations, ev.violations);
    assert.equal(out.waived_count, 0);
    assert.equal(out.waivers_valid_until, null);
    assert.deepEqual(contribution(out).waived, undefined);
  });

  it('waives a whole violation: marked, out of score, badges, gaps, counts and contribution', () => {
    const ev = evaluation();
    const di1 = ev.violations.find((v) => v.policy === 'DI-1')!;
    assert.equal(di1.failing_modules.length, 2);
    const out = applyWaivers(ev, [waiver({})]);
    const marked = out.violations.find((v) => v.policy === 'DI-1')!;
    assert.deepEqual(marked.waived, { waiver_id: 'wvr_1', expires_at: '2027-01-01T00:00:00.000Z' });
    assert.ok(marked.failing_modules.every((f) => f.waived));
    assert.ok(out.score > ev.score);
    assert.equal(out.failing_count, ev.failing_count - 1);
    assert.equal(out.passing_count, ev.passing_count, 'a waived violation is neither passing nor failing');
    assert.equal(out.waived_count, 1);
    assert.ok(!out.module_summary.some((s) => s.policies.includes('DI-1')));
    assert.ok(!out.module_graph.nodes.some((n) => n.policies.includes('DI-1')));
    const c = contribution(out);
    assert.equal(c.policies['DI-1'], undefined);
    assert.deepEqual(c.waived, { 'DI-1': 2 });
    assert.equal(c.violations, ev.violations.length - 1);
    const stats = violationStats(out, 0);
    const counted = Object.values(stats.violations).reduce((a, b) => a + b, 0);
    assert.equal(counted, ev.violations.length - 1, 'gov_violations_total leaves it out');
  });

  it('waives one finding by module id: the violation keeps counting on the other module', () => {
    const ev = evaluation();
    const out = applyWaivers(ev, [waiver({ module_id: '2' })]);
    const v = out.violations.find((x) => x.policy === 'DI-1')!;
    assert.equal(v.waived, undefined);
    assert.deepEqual(
      v.failing_modules.map((f) => [f.module_id, f.waived !== undefined]),
      [
        ['2', true],
        ['3', false],
      ],
    );
    assert.equal(out.score, ev.score, 'the violation still counts once');
    const m2 = out.module_summary.find((s) => s.module_id === '2');
    assert.ok(!m2 || !m2.policies.includes('DI-1'), 'module 2 loses its DI-1 badge');
    assert.ok(out.module_summary.find((s) => s.module_id === '3')!.policies.includes('DI-1'));
    assert.deepEqual(contribution(out).waived, { 'DI-1': 1 });
  });

  it('waives a whole violation when every finding is waived by fingerprint, under the earliest expiry', () => {
    const ev = evaluation();
    const [a, b] = ev.violations.find((v) => v.policy === 'DI-1')!.failing_modules;
    const out = applyWaivers(ev, [
      waiver({ waiver_id: 'wvr_a', fingerprint: a!.fingerprint, expires_at: '2027-03-01T00:00:00.000Z' }),
      waiver({ waiver_id: 'wvr_b', fingerprint: b!.fingerprint, expires_at: '2027-02-01T00:00:00.000Z' }),
    ]);
    const v = out.violations.find((x) => x.policy === 'DI-1')!;
    assert.equal(v.waived?.waiver_id, 'wvr_b');
    assert.equal(out.waivers_valid_until, '2027-02-01T00:00:00.000Z');
    assert.equal(out.waived_count, 1);
  });

  it('waives by the violation fingerprint', () => {
    const ev = evaluation();
    const fp = ev.violations.find((v) => v.policy === 'ARC-4')!.fingerprint;
    const out = applyWaivers(ev, [waiver({ policy: 'ARC-4', fingerprint: fp })]);
    assert.ok(out.violations.find((v) => v.policy === 'ARC-4')!.waived);
    assert.ok(out.score > ev.score);
  });
});
