/** @module server/routes/policies: `GET /governance/policies`, cacheable for 24 h with an ETag (spec §4, §8). */
import { createHash } from 'node:crypto';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import { CATALOG_REVISION, POLICIES } from '../../engine/index.js';
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
    summary: 'The policy catalog (cacheable for 24 hours)',
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

/** `GET /governance/policies`: `Cache-Control: max-age=86400`, strong ETag from the catalog revision and content, 304 on `If-None-Match`. */
export function policiesRoute(): Route {
  const data = catalogJson();
  const etag = `"${CATALOG_REVISION}-${createHash('sha256').update(data).digest('hex').slice(0, 16)}"`;
  const headers: [string, string][] = [
    ['cache-control', 'max-age=86400'],
    ['etag', etag],
  ];
  return {
    ...LIST_POLICIES,
    handle(req, ctx) {
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
