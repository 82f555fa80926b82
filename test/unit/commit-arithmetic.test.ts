/**
 * The commit path's shortcuts (issue 20, item 4) give exactly what they replace: `applyContributions`
 * is `applyContribution` folded over the pairs (values and key order), and `fleetChanges` is
 * `memberChanges` of the two states' `fleetMembers` (same members, same order).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { applyContribution, applyContributions, emptyRollup } from '../../src/store/rollup.js';
import { fleetChanges, fleetMembers, memberChanges, type FleetState } from '../../src/store/fleet/keys.js';
import type { RollupContribution, ScenarioBadge } from '../../src/model/records.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BADGES: readonly (ScenarioBadge | undefined)[] = ['clean', 'critical', 'high', 'low', undefined];

function contribution(r: () => number): RollupContribution {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const policies: Record<string, number> = {};
  for (const code of ['SEC-1', 'SEC-2', 'DI-1', 'OPS-3']) if (r() < 0.5) policies[code] = 1 + Math.floor(r() * 4);
  const gaps = ['GDPR Art. 32', 'SOC 2 CC6.1', 'HIPAA 164.312'].filter(() => r() < 0.4);
  const waived = r() < 0.3 ? { 'SEC-9': 1 + Math.floor(r() * 2) } : undefined;
  const badge = pick(BADGES);
  return {
    score: Math.round(r() * 1000) / 10,
    violations: Object.keys(policies).length,
    critical: r() < 0.3 ? 1 : 0,
    policies,
    gaps,
    ...(waived ? { waived } : {}),
    ...(badge ? { badge } : {}),
  };
}

it('applyContributions equals applyContribution folded over the same pairs, key order included', () => {
  const r = random(20);
  for (let round = 0; round < 200; round++) {
    let start = emptyRollup('org', 'T0');
    for (let i = 0; i < 5; i++) start = applyContribution(start, null, contribution(r), 'T0');
    const pairs: [RollupContribution | null, RollupContribution | null][] = [];
    for (let i = 0; i < 1 + Math.floor(r() * 8); i++)
      pairs.push([r() < 0.2 ? null : contribution(r), r() < 0.2 ? null : contribution(r)]);
    const folded = pairs.reduce((acc, [old, next]) => applyContribution(acc, old, next, 'T1'), start);
    const once = applyContributions(start, pairs, 'T1');
    assert.deepEqual(once, folded);
    assert.equal(JSON.stringify(once), JSON.stringify(folded));
  }
});

it('fleetChanges equals memberChanges of the fleetMembers of both states', () => {
  const r = random(4);
  const state = (): FleetState | null =>
    r() < 0.1
      ? null
      : {
          scenarioId: `s${Math.floor(r() * 3)}`,
          nameKey: r() < 0.5 ? 'payments' : 'ledger',
          latest:
            r() < 0.2
              ? null
              : {
                  c: contribution(r),
                  evaluatedAt: r() < 0.5 ? '2026-11-26T10:00:00.000Z' : '2026-11-26T11:00:00.000Z',
                },
        };
  let changed = 0;
  for (let round = 0; round < 500; round++) {
    const before = state();
    const after = before && r() < 0.3 ? before : state();
    const expected = memberChanges(before ? fleetMembers(before) : [], after ? fleetMembers(after) : []);
    const got = fleetChanges(before, after);
    assert.deepEqual(got, expected);
    if (got.gone.length > 0) changed++;
  }
  assert.ok(changed > 100, 'the states differ often enough to test something');
});
