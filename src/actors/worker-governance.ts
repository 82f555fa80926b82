/**
 * @module actors/worker-governance: inside an evaluation worker, the engine options of an
 * organization's governance context (issue 17): its settings and its custom rules compiled to
 * policies, once per context key (organization, settings version, rules revision: immutable), kept
 * in a small most-recently-used cache.
 */
import type { EvaluateOptions, Policy } from '../engine/index.js';
import type { GovernanceTaskContext } from './worker-protocol.js';
import type { CustomRule } from '../engine/rules/index.js';
import { compileRule } from '../engine/rules/index.js';

/** Contexts kept per worker (a worker serves every organization). */
const CACHE_SIZE = 64;
const cache = new Map<string, Pick<EvaluateOptions, 'settings' | 'extraPolicies'>>();

/** The default context: no settings, no custom rules. */
const NONE: Pick<EvaluateOptions, 'settings' | 'extraPolicies'> = {};

/** The engine options for `ctx`; compiled on first use of its key. */
export function engineOptionsOf(ctx: GovernanceTaskContext): Pick<EvaluateOptions, 'settings' | 'extraPolicies'> {
  if (ctx.settings === null && ctx.rules.length === 0) return NONE;
  const hit = cache.get(ctx.key);
  if (hit) {
    cache.delete(ctx.key);
    cache.set(ctx.key, hit);
    return hit;
  }
  const compiled = compile(ctx);
  cache.set(ctx.key, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return compiled;
}

/**
 * Settings as they are; rules compiled (their bodies were validated before they were stored). A rule
 * that no longer compiles (a body stored by an older release) is left out rather than failing every
 * evaluation of its organization.
 */
function compile(ctx: GovernanceTaskContext): Pick<EvaluateOptions, 'settings' | 'extraPolicies'> {
  const extraPolicies: Policy[] = [];
  for (const r of ctx.rules)
    try {
      extraPolicies.push(compileRule(r.code, r.rule as unknown as CustomRule));
    } catch {
      // validated at creation: unreachable unless the rule format changed incompatibly
    }
  return ctx.settings === null ? { extraPolicies } : { settings: ctx.settings, extraPolicies };
}
