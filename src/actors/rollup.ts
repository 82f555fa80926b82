/**
 * @module actors/rollup: the organization rollup (design notes "Organization rollup"), kept up to date
 * incrementally. Each stored scenario result carries its contribution; storing a result applies
 * (new − old) to the organization's rollup inside the same LMDB write transaction, so LMDB's single
 * writer orders the updates of one organization and a read costs O(1) in the fleet size.
 */
import type { RollupContribution, RollupRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { POLICIES, POLICY_BY_CODE, gapLabel, refId } from '../engine/index.js';
import { k } from '../store/store.js';
import { prefixKeys } from '../store/ranges.js';

/** An empty rollup. */
export function emptyRollup(orgId: string, nowIso: string): RollupRecord {
  return { org_id: orgId, scenarios_total: 0, scenarios_evaluated: 0, score_sum: 0, violations_total: 0, critical_total: 0, policies: {}, gaps: {}, updated_at: nowIso };
}

/** `rollup` with `old` removed and `next` added (either may be null). Pure. */
export function applyContribution(rollup: RollupRecord, old: RollupContribution | null, next: RollupContribution | null, nowIso: string): RollupRecord {
  const policies: Record<string, { count: number; scenarios: number }> = { ...rollup.policies };
  const gaps: Record<string, number> = { ...rollup.gaps };
  const add = (c: RollupContribution, sign: 1 | -1) => {
    for (const [code, findings] of Object.entries(c.policies)) {
      const cur = policies[code] ?? { count: 0, scenarios: 0 };
      const upd = { count: cur.count + sign * findings, scenarios: cur.scenarios + sign };
      if (upd.scenarios <= 0) delete policies[code];
      else policies[code] = upd;
    }
    for (const g of c.gaps) {
      const n = (gaps[g] ?? 0) + sign;
      if (n <= 0) delete gaps[g];
      else gaps[g] = n;
    }
  };
  if (old) add(old, -1);
  if (next) add(next, 1);
  const d = (f: (c: RollupContribution) => number) => (next ? f(next) : 0) - (old ? f(old) : 0);
  return {
    ...rollup,
    scenarios_evaluated: rollup.scenarios_evaluated + (next ? 1 : 0) - (old ? 1 : 0),
    score_sum: rollup.score_sum + d((c) => c.score),
    violations_total: rollup.violations_total + d((c) => c.violations),
    critical_total: rollup.critical_total + d((c) => c.critical),
    policies, gaps, updated_at: nowIso,
  };
}

/** Changes `scenarios_total` by `delta` (import of a new scenario: +1, delete: −1). Call inside a write transaction. */
export function countScenario(store: Store, orgId: string, delta: 1 | -1, nowIso: string): void {
  const cur = store.rollups.get(orgId) ?? emptyRollup(orgId, nowIso);
  void store.rollups.put(orgId, { ...cur, scenarios_total: Math.max(0, cur.scenarios_total + delta), updated_at: nowIso });
}

/** Replaces a scenario's contribution. Call inside a write transaction. */
export function updateRollup(store: Store, orgId: string, old: RollupContribution | null, next: RollupContribution | null, nowIso: string): void {
  updateRollupMany(store, orgId, [[old, next]], nowIso);
}

/**
 * Replaces several scenarios' contributions (`[old, next]` pairs) with one read and one write of the
 * organization's rollup: a commit of many results decodes and encodes the rollup once. Call inside
 * a write transaction.
 */
export function updateRollupMany(store: Store, orgId: string, changes: readonly (readonly [RollupContribution | null, RollupContribution | null])[], nowIso: string): void {
  if (changes.length === 0) return;
  let rollup = store.rollups.get(orgId) ?? emptyRollup(orgId, nowIso);
  for (const [old, next] of changes) rollup = applyContribution(rollup, old, next, nowIso);
  void store.rollups.put(orgId, rollup);
}

/** Controls per framework that the catalog cites (the denominators of framework coverage). */
const FRAMEWORK_CONTROLS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const p of POLICIES) for (const r of p.compliance_frameworks) (map.get(r.framework) ?? map.set(r.framework, new Set()).get(r.framework)!).add(refId(r));
  return map;
})();

/** The API view (`GET /organization/rollup`): score, totals, top violations, framework coverage. */
export function rollupView(r: RollupRecord): Record<string, unknown> {
  const top = Object.entries(r.policies)
    .sort((a, b) => b[1].scenarios - a[1].scenarios || b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([code, v]) => ({ policy: code, title: POLICY_BY_CODE.get(code)?.title ?? code, severity: POLICY_BY_CODE.get(code)?.severity ?? 'medium', count: v.count, scenarios: v.scenarios }));
  const coverage = [...FRAMEWORK_CONTROLS].map(([framework, controls]) => {
    let met = 0;
    for (const id of controls) if (!r.gaps[gapLabel(framework === 'GDPR' || framework === 'EU AI Act' ? { framework: framework as never, article: id } : { framework: framework as never, control: id })]) met++;
    return { framework, controls_total: controls.size, controls_met: met, coverage: Math.round((met / controls.size) * 1000) / 1000 };
  });
  return {
    score: r.scenarios_evaluated === 0 ? null : Math.round((r.score_sum / r.scenarios_evaluated) * 10) / 10,
    scenarios_total: r.scenarios_total,
    scenarios_evaluated: r.scenarios_evaluated,
    violations_total: r.violations_total,
    critical_total: r.critical_total,
    top_violations: top,
    framework_coverage: coverage,
    updated_at: r.updated_at,
  };
}

/** Rebuilds an organization's rollup from its stored scenarios and results (O(fleet); tests and `admin rollup rebuild`). */
export function recomputeRollup(store: Store, orgId: string, nowIso: string): RollupRecord {
  let r = emptyRollup(orgId, nowIso);
  let total = 0;
  for (const key of prefixKeys(store.scenarios, [orgId])) {
    total++;
    const result = store.results.get(key);
    if (result) r = applyContribution(r, null, result.contribution, nowIso);
  }
  return { ...r, scenarios_total: total };
}
