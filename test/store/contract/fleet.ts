/**
 * @module test/store/contract/fleet: the contract of FleetRepository (issue 18): the scenario list
 * in every sort and order, paged by cursor without duplicates or gaps, filtered by badge and by
 * `q`, kept through re-evaluation, re-import and deletion; histories (newest 50) and the
 * evaluations completed per day.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../../src/store/store.js';
import type { RollupContribution, SeverityName } from '../../../src/model/records.js';
import type { FleetQuery, FleetRow } from '../../../src/store/fleet/repository.js';
import type { FleetBadge, FleetSort } from '../../../src/store/fleet/keys.js';
import type { BackendUnderTest } from './backend.js';
import { FLEET_SORTS, decodeCursor } from '../../../src/store/fleet/keys.js';
import { withBackend } from './backend.js';
import { advance, byCodePoint, evaluationRecord, iso, ORG, ORG_PREFIXED, resultWrite } from './fixtures.js';

const SEVERITIES: readonly SeverityName[] = ['critical', 'high', 'medium', 'low', 'info'];
const RANK: Record<string, number> = { clean: 0, unknown: 1, info: 2, low: 3, medium: 4, high: 5, critical: 6 };

/** A contribution whose worst badge is `badge` (null: clean) with `n` violations of it. */
function contributionOf(score: number, badge: SeverityName | null, n = 1): RollupContribution {
  const severities = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  if (badge) severities[badge] = n;
  return {
    score,
    violations: badge ? n : 0,
    critical: badge === 'critical' ? n : 0,
    policies: badge ? { 'SEC-1': n } : {},
    gaps: [],
    badge: badge ?? 'clean',
    severities,
  };
}

let evaluationSeq = 0;
/** Evaluates `scenarios` of `orgId` (each with its contribution) at `ms` after T0, complete. */
async function land(
  store: Store,
  orgId: string,
  scenarios: [string, RollupContribution][],
  ms: number,
): Promise<string> {
  const id = `ev_f${++evaluationSeq}`;
  const record = evaluationRecord(
    id,
    orgId,
    scenarios.map(([sid]) => sid),
    {
      versions: await Promise.all(
        scenarios.map(async ([sid]) => (await store.scenarios.get(orgId, sid))?.version ?? 1),
      ),
      ms,
    },
  );
  await store.evaluations.create(record);
  await store.evaluations.commit({
    record: advance(
      record,
      'complete',
      scenarios.map((_, i) => i),
      ms,
    ),
    results: scenarios.map(([, c], i) => resultWrite(id, i, c, iso(ms))),
  });
  return id;
}

const save = (store: Store, orgId: string, sid: string, name: string, ms = 0) =>
  store.scenarios.save({ orgId, scenarioId: sid, name, blueprintJson: '{"flow":[]}', moduleCount: 3, nowIso: iso(ms) });

/** Every page of `query` with `limit`, concatenated; checks each page's `total`. */
async function allPages(store: Store, orgId: string, query: Omit<FleetQuery, 'limit' | 'after'>, limit: number) {
  const rows: FleetRow[] = [];
  let after: string | undefined;
  let total = -1;
  for (let n = 0; n < 100; n++) {
    const page = await store.fleet.page(orgId, { ...query, limit, ...(after === undefined ? {} : { after }) });
    assert.ok(page.rows.length <= limit);
    if (total >= 0) assert.equal(page.total, total, 'the same total on every page');
    total = page.total;
    rows.push(...page.rows);
    if (page.nextCursor === null) return { rows, total };
    after = decodeCursor(page.nextCursor) ?? assert.fail('a cursor decodes');
  }
  assert.fail('more than 100 pages');
}

/** The value a row sorts by (null: never evaluated, last ascending). */
function sortValue(r: FleetRow, sort: FleetSort): string | number | null {
  switch (sort) {
    case 'name':
      return r.name.toLowerCase();
    case 'score':
      return r.score;
    case 'badge':
      return r.badge === null ? null : RANK[r.badge]!;
    case 'evaluated_at':
      return r.evaluated_at;
    case 'violations':
      return r.badge === null ? null : SEVERITIES.reduce((a, s) => a + (r.violations[s] ?? 0), 0);
  }
}

/** The expected order, built without the backend's keys: by value (nulls last), then id by code point; desc reversed. */
function expectedOrder(rows: readonly FleetRow[], sort: FleetSort, order: 'asc' | 'desc'): string[] {
  const sorted = [...rows].sort((a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      if (typeof x === 'string' && typeof y === 'string') {
        const c = byCodePoint(x, y);
        if (c !== 0) return c;
      } else return (x as number) - (y as number);
    }
    return byCodePoint(a.scenario_id, b.scenario_id);
  });
  const ids = sorted.map((r) => r.scenario_id);
  return order === 'asc' ? ids : ids.reverse();
}

/** Ids chosen to break layouts: prefixes, 64+ units, non-ASCII, upper case. */
const IDS = ['a', 'ab', 'a-b', 'B', 'L'.repeat(70), `${'x'.repeat(60)}-é`, 'é中😀', 'zz', 'Mixed-ID', 'n1', 'n2', 'n3'];
const NAMES = [
  'Payroll sync',
  'payroll SYNC',
  'Ärger',
  'Zeta',
  'alpha',
  'Beta flow',
  'CRM → Sheets',
  'crm',
  'Alpha',
  'Mail',
  'mail',
  'Ω',
];
const PLAN: readonly (readonly [number, SeverityName | null, number] | null)[] = [
  [40, 'critical', 2],
  [80, 'low', 1],
  [80, 'low', 3],
  [100, null, 0],
  [55, 'high', 2],
  [70, 'medium', 1],
  null,
  [90, 'info', 1],
  [40, 'critical', 1],
  null,
  [100, null, 0],
  [62, 'high', 4],
];

/** Imports the fleet of IDS/NAMES into `orgId` and evaluates it per PLAN (two evaluations, so evaluated_at differs). */
async function seed(store: Store, orgId: string): Promise<void> {
  for (const [i, sid] of IDS.entries()) await save(store, orgId, sid, NAMES[i]!, i);
  const first: [string, RollupContribution][] = [];
  const second: [string, RollupContribution][] = [];
  for (const [i, p] of PLAN.entries())
    if (p) (i % 2 ? first : second).push([IDS[i]!, contributionOf(p[0], p[1], p[2])]);
  await land(store, orgId, first, 10_000);
  await land(store, orgId, second, 20_000);
}

/** Registers the fleet suite for `backend`. */
export function fleetContract(backend: BackendUnderTest): void {
  describe(`fleet contract (${backend.name})`, () => {
    it('pages every sort in both orders, without duplicates or gaps, across page sizes', () =>
      withBackend(backend, async ({ store }) => {
        await seed(store, ORG);
        await save(store, ORG_PREFIXED, 'other', 'Alpha'); // another organization, whose key prefix is a prefix
        const { rows: all, total } = await allPages(store, ORG, { sort: 'name', order: 'asc' }, 200);
        assert.equal(total, IDS.length);
        assert.equal(all.length, IDS.length);
        for (const sort of FLEET_SORTS)
          for (const order of ['asc', 'desc'] as const) {
            const expected = expectedOrder(all, sort, order);
            for (const limit of [1, 5, 200]) {
              const paged = await allPages(store, ORG, { sort, order }, limit);
              assert.deepEqual(
                paged.rows.map((r) => r.scenario_id),
                expected,
                `${sort} ${order} by ${limit}`,
              );
            }
          }
        const crm = all.find((r) => r.scenario_id === 'é中😀')!;
        assert.deepEqual(crm, {
          scenario_id: 'é中😀',
          name: 'CRM → Sheets',
          score: null,
          badge: null,
          evaluated_at: null,
          violations: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
          module_count: 3,
        });
        const a = all.find((r) => r.scenario_id === 'a')!;
        assert.deepEqual(
          [a.score, a.badge, a.evaluated_at, a.violations],
          [40, 'critical', iso(20_000), { critical: 2, high: 0, medium: 0, low: 0, info: 0 }],
        );
      }));

    it('filters by badge (never evaluated too) and by q, with exact totals, in any sort', () =>
      withBackend(backend, async ({ store }) => {
        await seed(store, ORG);
        const { rows: all } = await allPages(store, ORG, { sort: 'name', order: 'asc' }, 200);
        const rollup = await store.results.rollup(ORG);
        const groups: FleetBadge[] = ['critical', 'high', 'medium', 'low', 'info', 'clean', 'not_evaluated'];
        let sum = 0;
        for (const badge of groups) {
          const want = all.filter((r) => (r.badge ?? 'not_evaluated') === badge);
          for (const sort of ['score', 'name'] as const) {
            const got = await allPages(store, ORG, { sort, order: 'desc', badge }, 2);
            assert.deepEqual(
              got.rows.map((r) => r.scenario_id),
              expectedOrder(want, sort, 'desc'),
              badge,
            );
            assert.equal(got.total, want.length);
          }
          sum += want.length;
          if (badge !== 'not_evaluated')
            assert.equal(rollup?.badges?.[badge] ?? 0, want.length, `rollup badges.${badge}`);
        }
        assert.equal(sum, IDS.length);
        for (const q of ['alpha', 'PAYROLL', 'mixed', 'é', 'a', 'nothing-matches', 'ä']) {
          const lq = q.toLowerCase();
          const want = all.filter((r) => r.name.toLowerCase().includes(lq) || r.scenario_id.toLowerCase().includes(lq));
          for (const order of ['asc', 'desc'] as const) {
            const got = await allPages(store, ORG, { sort: 'score', order, q }, 2);
            assert.deepEqual(
              got.rows.map((r) => r.scenario_id),
              expectedOrder(want, 'score', order),
              `q=${q}`,
            );
            assert.equal(got.total, want.length, `q=${q} total`);
          }
        }
        const both = await allPages(store, ORG, { sort: 'name', order: 'asc', q: 'a', badge: 'critical' }, 1);
        assert.deepEqual(
          both.rows.map((r) => r.scenario_id),
          expectedOrder(
            all.filter(
              (r) =>
                r.badge === 'critical' &&
                (r.name.toLowerCase().includes('a') || r.scenario_id.toLowerCase().includes('a')),
            ),
            'name',
            'asc',
          ),
        );
      }));

    it('keeps the index through re-evaluation, re-import under another name and deletion', () =>
      withBackend(backend, async ({ store }) => {
        await seed(store, ORG);
        await land(store, ORG, [['a', contributionOf(100, null)]], 30_000); // critical → clean
        await land(store, ORG, [['zz', contributionOf(10, 'critical', 5)]], 5_000); // older than its latest: ignored
        await save(store, ORG, 'ab', 'Aardvark', 40_000);
        assert.equal(await store.scenarios.delete(ORG, 'B', iso(41_000)), true);
        assert.equal(await store.scenarios.delete(ORG, 'n1', iso(41_000)), true);
        const { rows: all, total } = await allPages(store, ORG, { sort: 'name', order: 'asc' }, 3);
        assert.equal(total, IDS.length - 2);
        assert.deepEqual(
          all.map((r) => r.scenario_id),
          expectedOrder(all, 'name', 'asc'),
        );
        assert.ok(!all.some((r) => r.scenario_id === 'B' || r.scenario_id === 'n1'));
        assert.equal(all.find((r) => r.scenario_id === 'ab')?.name, 'Aardvark');
        assert.equal(all[0]?.scenario_id, 'ab');
        const a = all.find((r) => r.scenario_id === 'a')!;
        assert.deepEqual([a.score, a.badge, a.evaluated_at], [100, 'clean', iso(30_000)]);
        assert.equal(all.find((r) => r.scenario_id === 'zz')?.badge, 'info');
        for (const sort of FLEET_SORTS) {
          const got = await allPages(store, ORG, { sort, order: 'asc' }, 4);
          assert.deepEqual(
            got.rows.map((r) => r.scenario_id),
            expectedOrder(all, sort, 'asc'),
            sort,
          );
        }
        const critical = await allPages(store, ORG, { sort: 'name', order: 'asc', badge: 'critical' }, 10);
        assert.deepEqual(
          critical.rows.map((r) => r.scenario_id),
          ['Mixed-ID'],
        );
        assert.deepEqual(
          (await allPages(store, ORG, { sort: 'name', order: 'asc', badge: 'not_evaluated' }, 10)).rows.map(
            (r) => r.scenario_id,
          ),
          ['é中😀'],
        );
        const rollup = await store.results.rollup(ORG);
        const computed = await store.results.computeRollup(ORG, iso());
        assert.deepEqual(rollup?.badges, computed.badges);
        // A deleted scenario imported again starts unevaluated, without history.
        await save(store, ORG, 'B', 'Bravo', 50_000);
        const b = (await allPages(store, ORG, { sort: 'name', order: 'asc', q: 'bravo' }, 5)).rows;
        assert.deepEqual(
          b.map((r) => [r.scenario_id, r.badge]),
          [['B', null]],
        );
        assert.deepEqual(await store.fleet.history(ORG, 'B'), []);
      }));

    it('keeps the newest 50 evaluations of a scenario, newest first, and drops them with the scenario', () =>
      withBackend(backend, async ({ store }) => {
        await save(store, ORG, 'a', 'A');
        await save(store, ORG, 'ab', 'AB');
        const ids: string[] = [];
        for (let i = 0; i < 55; i++)
          ids.push(await land(store, ORG, [['a', contributionOf(i, 'low', i + 1)]], i * 1_000));
        await land(store, ORG, [['ab', contributionOf(70, null)]], 1_000);
        const history = await store.fleet.history(ORG, 'a');
        assert.equal(history.length, 50);
        assert.deepEqual(
          history.map((h) => h.evaluation_id),
          ids.slice(5).reverse(),
        );
        assert.deepEqual(history[0], {
          evaluation_id: ids[54],
          evaluated_at: iso(54_000),
          score: 54,
          violations: { critical: 0, high: 0, medium: 0, low: 55, info: 0 },
        });
        assert.deepEqual(
          (await store.fleet.history(ORG, 'ab')).map((h) => h.score),
          [70],
        );
        assert.deepEqual(await store.fleet.history(ORG_PREFIXED, 'a'), []);
        await store.scenarios.delete(ORG, 'a', iso());
        assert.deepEqual(await store.fleet.history(ORG, 'a'), []);
        assert.equal((await store.fleet.history(ORG, 'ab')).length, 1);
      }));

    it('counts evaluations completed per day once each, with their scenarios; failed ones are not counted', () =>
      withBackend(backend, async ({ store }) => {
        for (const sid of ['a', 'ab', 'b']) await save(store, ORG, sid, sid);
        const day = 86_400_000;
        await land(store, ORG, [['a', contributionOf(90, null)]], 0);
        await land(
          store,
          ORG,
          [
            ['a', contributionOf(90, null)],
            ['ab', contributionOf(80, 'low')],
          ],
          1_000,
        );
        await land(store, ORG, [['b', contributionOf(70, 'low')]], day);
        const failed = evaluationRecord('ev_failed', ORG, ['a'], { ms: day });
        await store.evaluations.create(failed);
        await store.evaluations.commit({ record: advance(failed, 'error', [], day) });
        // A complete record committed again (a repair) does not count twice.
        const twice = evaluationRecord('ev_twice', ORG, ['b'], { ms: day });
        await store.evaluations.create(twice);
        await store.evaluations.commit({ record: advance(twice, 'complete', [0], day) });
        await store.evaluations.commit({ record: advance(twice, 'complete', [0], day) });
        const d0 = iso(0).slice(0, 10);
        const d1 = iso(day).slice(0, 10);
        const d2 = iso(2 * day).slice(0, 10);
        assert.deepEqual(await store.fleet.evaluationDays(ORG, [d0, d1, d2]), [
          { day: d0, evaluations: 2, scenarios: 3 },
          { day: d1, evaluations: 2, scenarios: 2 },
          { day: d2, evaluations: 0, scenarios: 0 },
        ]);
        assert.deepEqual(await store.fleet.evaluationDays(ORG_PREFIXED, [d0]), [
          { day: d0, evaluations: 0, scenarios: 0 },
        ]);
      }));
  });
}
