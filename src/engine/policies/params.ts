/**
 * @module engine/policies/params: the resolved parameter values a policy is run with (issue 17,
 * organization settings): the organization's value where it set one, the declared default elsewhere.
 */
import type { Policy, PolicyParameter, PolicyParams } from './types.js';

/** The parameters of a policy that declares none (shared, frozen: the hot path allocates nothing). */
export const NO_PARAMS: PolicyParams = Object.freeze({});

/** Defaults per policy, built once per policy object (policies are static, so this never grows past the catalog). */
const DEFAULTS = new WeakMap<Policy, PolicyParams>();

/**
 * The value of `parameter` in `params`, or its declared default when absent (a policy run outside
 * the engine, e.g. `policy.evaluate(analysis, {})` in a test, still gets a sound value).
 * @example paramValue(params, MAX_MODULES) // 50 unless the organization set `max_modules`
 */
export function paramValue<P extends PolicyParameter>(params: PolicyParams, parameter: P): P['default'] {
  const value = params[parameter.name];
  return value === undefined ? parameter.default : value;
}

/** A policy's parameters at their defaults: `NO_PARAMS` when it declares none; one frozen object per policy otherwise. */
export function defaultParams(policy: Policy): PolicyParams {
  if (!policy.parameters) return NO_PARAMS;
  let params = DEFAULTS.get(policy);
  if (params === undefined) {
    params = Object.freeze(Object.fromEntries(policy.parameters.map((p) => [p.name, p.default])));
    DEFAULTS.set(policy, params);
  }
  return params;
}

/**
 * A policy's parameters with the organization's values (`settings.parameters`, by name) over the
 * defaults. Values are taken as given: `validateSettings` checks them before they are stored. Returns
 * `defaultParams(policy)` when the organization sets none of them.
 */
export function resolveParams(policy: Policy, values: Readonly<Record<string, unknown>> | undefined): PolicyParams {
  const declared = policy.parameters;
  if (!declared || !values || !declared.some((p) => values[p.name] !== undefined)) return defaultParams(policy);
  const out: Record<string, number | readonly string[]> = {};
  for (const p of declared) out[p.name] = (values[p.name] as number | readonly string[] | undefined) ?? p.default;
  return out;
}
