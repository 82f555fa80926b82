/**
 * @module store/redis/rollup-hash: an organization's rollup as a Redis hash, `P{org}:rollup`, kept
 * incrementally inside the scripts that import, delete and evaluate scenarios (HINCRBY: no read-
 * modify-write of a whole record, so concurrent commits of one organization never conflict).
 * Fields: `scenarios_total`, `scenarios_evaluated`, `score_sum`, `violations_total`,
 * `critical_total`, `updated_at`, `p:<code>:n` (findings) and `p:<code>:s` (scenarios) per policy,
 * `g:<gap>` (scenarios) per compliance gap, and `rev` (bumped by every change, so a rebuild can
 * replace the hash only if nothing changed since it read). The arithmetic is store/rollup.ts's
 * `applyContribution`: a policy or gap whose scenario count drops to 0 is removed. (`incr` skips
 * zero steps: Lua's -1 * 0 is -0, which HINCRBY refuses as "not an integer".)
 */
import type { RollupRecord } from '../../model/records.js';

/**
 * Lua: `apply_contribution(key, c, sign)` adds (sign 1) or removes (sign -1) contribution `c`
 * (decoded from JSON with cjson) to the rollup hash `key`. Prepend it to a script's source.
 */
export const APPLY_CONTRIBUTION_LUA = `local function incr(key, field, n)
  if n ~= 0 then redis.call('HINCRBY', key, field, n) end
end
local function apply_contribution(key, c, sign)
  incr(key, 'scenarios_evaluated', sign)
  incr(key, 'score_sum', sign * c.score)
  incr(key, 'violations_total', sign * c.violations)
  incr(key, 'critical_total', sign * c.critical)
  for code, n in pairs(c.policies) do
    local s = redis.call('HINCRBY', key, 'p:' .. code .. ':s', sign)
    incr(key, 'p:' .. code .. ':n', sign * n)
    if s <= 0 then redis.call('HDEL', key, 'p:' .. code .. ':s', 'p:' .. code .. ':n') end
  end
  for _, g in ipairs(c.gaps) do
    if redis.call('HINCRBY', key, 'g:' .. g, sign) <= 0 then redis.call('HDEL', key, 'g:' .. g) end
  end
end
`;

/** The rollup record of hash `fields` (HGETALL), or undefined when the hash does not exist. */
export function rollupFromHash(orgId: string, fields: Readonly<Record<string, string>>): RollupRecord | undefined {
  if (Object.keys(fields).length === 0) return undefined;
  const policies: Record<string, { count: number; scenarios: number }> = {};
  const gaps: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('g:')) gaps[field.slice(2)] = Number(value);
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
  return pairs;
}
