/**
 * @module store/rollup: the arithmetic of the organization rollup (design notes "Organization
 * rollup"): each stored scenario result carries its contribution, and storing a result applies
 * (new − old) to the organization's rollup in the same transaction, so a read costs O(1) in the
 * fleet size. Pure; every backend uses it, and the contract suite checks rollup = rebuild.
 */
import type { RollupContribution, RollupRecord } from '../model/records.js';
import { badgeOf } from './fleet/keys.js';

/** An empty rollup. */
export function emptyRollup(orgId: string, nowIso: string): RollupRecord {
  return {
    org_id: orgId,
    scenarios_total: 0,
    scenarios_evaluated: 0,
    score_sum: 0,
    violations_total: 0,
    critical_total: 0,
    policies: {},
    gaps: {},
    waived_total: 0,
    waived: {},
    badges: {},
    updated_at: nowIso,
  };
}

/** `rollup` with `old` removed and `next` added (either may be null). Pure. */
export function applyContribution(
  rollup: RollupRecord,
  old: RollupContribution | null,
  next: RollupContribution | null,
  nowIso: string,
): RollupRecord {
  return applyContributions(rollup, [[old, next]], nowIso);
}

/**
 * `rollup` with each `[old, next]` pair applied in order, as `applyContribution` folded over them
 * gives (the same values, the same key order), but with the rollup's maps copied once instead of
 * once per pair: a transaction that lands the results of many scenarios of one organization
 * (store/lmdb/write-batcher) applies them all at once. Pure.
 */
export function applyContributions(
  rollup: RollupRecord,
  changes: readonly (readonly [RollupContribution | null, RollupContribution | null])[],
  nowIso: string,
): RollupRecord {
  const policies: Record<string, { count: number; scenarios: number }> = { ...rollup.policies };
  const gaps: Record<string, number> = { ...rollup.gaps };
  const waived: Record<string, number> = { ...rollup.waived };
  const badges: Record<string, number> = { ...rollup.badges };
  let waivedTotal = rollup.waived_total ?? 0;
  let evaluated = rollup.scenarios_evaluated;
  let scoreSum = rollup.score_sum;
  let violations = rollup.violations_total;
  let critical = rollup.critical_total;
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
    for (const [code, findings] of Object.entries(c.waived ?? {})) {
      waivedTotal += sign * findings;
      const n = (waived[code] ?? 0) + sign;
      if (n <= 0) delete waived[code];
      else waived[code] = n;
    }
    const badge = badgeOf(c);
    const b = (badges[badge] ?? 0) + sign;
    if (b <= 0) delete badges[badge];
    else badges[badge] = b;
  };
  for (const [old, next] of changes) {
    if (old) add(old, -1);
    if (next) add(next, 1);
    const d = (f: (c: RollupContribution) => number) => (next ? f(next) : 0) - (old ? f(old) : 0);
    evaluated += (next ? 1 : 0) - (old ? 1 : 0);
    scoreSum += d((c) => c.score);
    violations += d((c) => c.violations);
    critical += d((c) => c.critical);
  }
  return {
    ...rollup,
    scenarios_evaluated: evaluated,
    score_sum: scoreSum,
    violations_total: violations,
    critical_total: critical,
    policies,
    gaps,
    waived_total: waivedTotal,
    waived,
    badges,
    updated_at: nowIso,
  };
}
