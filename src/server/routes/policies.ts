/** @module server/routes/policies: `GET /governance/policies`, cacheable for 24 h with an ETag (spec §4, §8). */
import { createHash } from 'node:crypto';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { Policy } from '../../engine/index.js';
import type { CustomRule } from '../../engine/rules/index.js';
import type { GovernanceTaskContext } from '../../actors/worker-protocol.js';
import type { RouteDeps } from './deps.js';
import { CATALOG_REVISION, POLICIES } from '../../engine/index.js';
import { effectiveCatalog } from '../../engine/governance/effective.js';
import { compileRule } from '../../engine/rules/index.js';
import { CATEGORY_NAMES } from '../../engine/policies/types.js';
import { okJson } from '../http/envelope.js';

/** `GET /governance/policies`. */
export const LIST_POLICIES: Endpoint = {
  method: 'GET',
  template: '/governance/policies',
  permission: 'governance:read',
  openapi: {
    operationId: 'listPolicies',
    tags: ['catalog'],
    summary: "The caller's effective policy catalog (cacheable for 24 hours)",
    description:
      'For an organization with settings or custom rules, each policy carries `enabled`, `effective_severity` and its `parameters` (value and default), custom rules are listed with `source: "custom"`, and the ETag changes with the settings version and the rules revision.',
    success: { status: 200, data: 'PolicyCatalog', description: 'Catalog', headers: ['Cache-Control', 'ETag'] },
    notModified: 'Not modified (`If-None-Match` matched the `ETag`)',
  },
};

/** The catalog `data`, rendered once at boot. */
export function catalogJson(): string {
  return JSON.stringify({
    revision: CATALOG_REVISION,
    policies: POLICIES.map((p) => ({
      code: p.code,
      title: p.title,
      category: p.category,
      category_name: CATEGORY_NAMES[p.category],
      severity: p.severity,
      compliance_frameworks: p.compliance_frameworks,
      description: p.description,
      rationale: p.rationale,
      remediation_effort: p.remediation.effort,
      docs: `docs/policies/${p.code}.md`,
    })),
  });
}

/** The catalog `data` of an organization with settings or custom rules: the effective catalog (issue 17). */
function effectiveJson(context: GovernanceTaskContext): string {
  const extra: Policy[] = [];
  for (const r of context.rules)
    try {
      extra.push(compileRule(r.code, r.rule as unknown as CustomRule));
    } catch {
      // validated at creation; a body an older release stored is left out, as in the workers
    }
  return JSON.stringify({
    revision: CATALOG_REVISION,
    settings_version: context.pin.settings_version,
    rules_revision: context.pin.rules_revision,
    policies: effectiveCatalog(context.settings ?? undefined, extra),
  });
}

/** A rendered catalog and its strong ETag (from the catalog revision, the pin and the content). */
interface RenderedCatalog {
  readonly data: string;
  readonly etag: string;
}

function rendered(data: string, tag: string): RenderedCatalog {
  return { data, etag: `"${tag}-${createHash('sha256').update(data).digest('hex').slice(0, 16)}"` };
}

/** Rendered effective catalogs kept per node, by context key (immutable). */
const CACHE_SIZE = 256;

/**
 * `GET /governance/policies`: the caller's effective catalog (issue 17): the published catalog for an
 * organization without settings or custom rules (rendered once at boot), else each policy with
 * `enabled`, `effective_severity` and its parameter values, plus the organization's rules.
 * `Cache-Control: max-age=86400`, a strong ETag that changes with the settings version and the
 * rules revision, 304 on `If-None-Match`.
 */
export function policiesRoute(deps: Pick<RouteDeps, 'evaluations'>): Route {
  const published = rendered(catalogJson(), CATALOG_REVISION);
  const cache = new Map<string, RenderedCatalog>();
  const catalogOf = (context: GovernanceTaskContext): RenderedCatalog => {
    if (context.settings === null && context.rules.length === 0) return published;
    let hit = cache.get(context.key);
    if (!hit) {
      hit = rendered(
        effectiveJson(context),
        `${CATALOG_REVISION}-s${context.pin.settings_version}-r${context.pin.rules_revision}`,
      );
      cache.set(context.key, hit);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    return hit;
  };
  return {
    ...LIST_POLICIES,
    async handle(req, ctx) {
      const { data, etag } = catalogOf(await deps.evaluations.governance.current(ctx.key!.org_id));
      const headers: [string, string][] = [
        ['cache-control', 'max-age=86400'],
        ['etag', etag],
      ];
      const inm = req.headers['if-none-match'];
      if (
        inm !== undefined &&
        (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
      ) {
        return { status: 304, body: '', headers };
      }
      return okJson(data, ctx.watermark!, 200, headers);
    },
  };
}
