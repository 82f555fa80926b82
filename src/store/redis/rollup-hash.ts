/**
 * @module store/redis/rollup-hash: an organization's rollup as a Redis hash, `P{org}:rollup`, kept
 * incrementally inside the scripts that import, delete and evaluate scenarios (HINCRBY: no read-
 * modify-write of a whole record, so concurrent commits of one organization never conflict).
 * Fields: `scenarios_total`, `scenarios_evaluated`, `score_sum`, `violations_total`,
 * `critical_total`, `updated_at`, `p:<code>:n` (findings) and `p:<code>:s` (scenarios) per policy,
 * `g:<gap>` (scenarios) per compliance gap, `b:<badge>` (evaluated scenarios by worst badge, issue 18), `waived_total` and `w:<code>` (scenarios with a waived
 * violation of the policy, issue 17), and `rev` (bumped by every change, so a rebuild can
 * replace the hash only if nothing changed since it read). The arithmetic is store/rollup.ts's
 * `applyContribution`: a policy or gap whose scenario count drops to 0 is removed. (Zero sums are
 * skipped: Lua's -1 * 0 is -0, which HINCRBY refuses as "not an integer".)
 */
import type { RollupRecord } from '../../model/records.js';
import { FLEET_BADGE_LUA } from '../fleet/redis-lua.js';

/**
 * Lua: `add_contribution(acc, c, sign)` sums contribution `c` (sign 1 or -1) into the table `acc`
 * (field → delta), and `flush_contributions(key, acc)` applies the sums with one HINCRBY per field,
 * then removes a policy's fields or a gap whose scenario count is 0 or less. The same end state as
 * applying each contribution in turn (a policy's findings are 0 whenever its scenario count is),
 * at one command per field instead of one per field and scenario: a commit of a chunk of ten
 * scenarios with mostly the same policies ran ~53 HINCRBYs per scenario (docs/benchmarks.md
 * "Cluster mode"). Every script that changes a rollup (a commit, a scenario's deletion) uses it.
 * Prepend it to a script's source.
 */
export const ACCUMULATE_CONTRIBUTIONS_LUA = `local function add_field(acc, field, n)
  acc[field] = (acc[field] or 0) + n
end
${FLEET_BADGE_LUA}
local function add_contribution(acc, c, sign)
  add_field(acc, 'scenarios_evaluated', sign)
  add_field(acc, 'score_sum', sign * c.score)
  add_field(acc, 'violations_total', sign * c.violations)
  add_field(acc, 'critical_total', sign * c.critical)
  for code, n in pairs(c.policies) do
    add_field(acc, 'p:' .. code .. ':s', sign)
    add_field(acc, 'p:' .. code .. ':n', sign * n)
  end
  for _, g in ipairs(c.gaps) do add_field(acc, 'g:' .. g, sign) end
  if type(c.waived) == 'table' then
    for code, n in pairs(c.waived) do
      add_field(acc, 'waived_total', sign * n)
      add_field(acc, 'w:' .. code, sign)
    end
  end
  add_field(acc, 'b:' .. fleet_badge(c), sign)
end
local function flush_contributions(key, acc)
  local counts = {}
  for field, n in pairs(acc) do
    if n ~= 0 then counts[field] = redis.call('HINCRBY', key, field, n) end
  end
  -- Removals after every increment: a policy's findings field must not be written again after it.
  for field, v in pairs(counts) do
    local kind = string.sub(field, 1, 2)
    if v <= 0 and (kind == 'g:' or kind == 'w:' or kind == 'b:') then redis.call('HDEL', key, field) end
    if v <= 0 and string.sub(field, 1, 2) == 'p:' and string.sub(field, -2) == ':s' then
      redis.call('HDEL', key, field, string.sub(field, 1, -3) .. ':n')
    end
  end
end
`;

/** The rollup record of hash `fields` (HGETALL), or undefined when the hash does not exist. */
export function rollupFromHash(orgId: string, fields: Readonly<Record<string, string>>): RollupRecord | undefined {
  if (Object.keys(fields).length === 0) return undefined;
  const policies: Record<string, { count: number; scenarios: number }> = {};
  const gaps: Record<string, number> = {};
  const waived: Record<string, number> = {};
  const badges: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('g:')) gaps[field.slice(2)] = Number(value);
    else if (field.startsWith('b:')) badges[field.slice(2)] = Number(value);
    else if (field.startsWith('w:')) waived[field.slice(2)] = Number(value);
    else if (field.startsWith('p:') && field.endsWith(':s')) {
      const code = field.slice(2, -2);
      policies[code] = { count: Number(fields[`p:${code}:n`] ?? 0), scenarios: Number(value) };
    }
  }
  const n = (field: string) => Math.max(0, Number(fields[field] ?? 0));
  return {
    org_id: orgId,
    scenarios_total: n('scenarios_total'),
    scenarios_evaluated: Number(fields['scenarios_evaluated'] ?? 0),
    score_sum: Number(fields['score_sum'] ?? 0),
    violations_total: Number(fields['violations_total'] ?? 0),
    critical_total: Number(fields['critical_total'] ?? 0),
    policies,
    gaps,
    waived_total: Number(fields['waived_total'] ?? 0),
    waived,
    badges,
    updated_at: fields['updated_at'] ?? '',
  };
}

/** The hash fields of `rollup` (without `rev`), as field/value pairs for HSET. */
export function rollupToHash(rollup: RollupRecord): string[] {
  const pairs: string[] = [
    ...['scenarios_total', String(rollup.scenarios_total), 'scenarios_evaluated', String(rollup.scenarios_evaluated)],
    ...['score_sum', String(rollup.score_sum), 'violations_total', String(rollup.violations_total)],
    ...['critical_total', String(rollup.critical_total), 'updated_at', rollup.updated_at],
  ];
  for (const [code, p] of Object.entries(rollup.policies))
    pairs.push(`p:${code}:n`, String(p.count), `p:${code}:s`, String(p.scenarios));
  for (const [gap, n] of Object.entries(rollup.gaps)) pairs.push(`g:${gap}`, String(n));
  if (rollup.waived_total) pairs.push('waived_total', String(rollup.waived_total));
  for (const [code, n] of Object.entries(rollup.waived ?? {})) pairs.push(`w:${code}`, String(n));
  for (const [badge, n] of Object.entries(rollup.badges ?? {})) pairs.push(`b:${badge}`, String(n));
  return pairs;
}
