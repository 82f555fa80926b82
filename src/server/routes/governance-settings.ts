/**
 * @module server/routes/governance-settings: `GET/PUT /governance/settings` (issue 17 "Organization
 * policy settings"; permission `governance:manage`): disabled policies, severity overrides and the
 * parameters the catalog declares, versioned. A PUT stores a new version (optimistic concurrency
 * with `If-Match: "<version>"`); evaluations submitted after it use it and record its version.
 */
import type { GovernanceSettingsRecord } from '../../model/records.js';
import type { Endpoint } from '../endpoint.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { POLICIES } from '../../engine/index.js';
import { validateSettings } from '../../engine/governance/settings.js';
import { parseJsonBody } from '../../api/requests.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { publicAnswer, refuse, type Outcome } from './outcome.js';
import { schemaRef } from '../openapi/components.js';
import { actorOf } from './waivers.js';

const MANAGE = 'governance:manage' as const;

/** `GET /governance/settings`. */
export const GET_SETTINGS: Endpoint = {
  method: 'GET',
  template: '/governance/settings',
  permission: MANAGE,
  openapi: {
    operationId: 'getGovernanceSettings',
    tags: ['governance'],
    summary: "The organization's policy settings (version 0: the defaults)",
    success: { status: 200, data: 'GovernanceSettings', description: 'Current settings', headers: ['ETag'] },
  },
};

/** `PUT /governance/settings`. */
export const PUT_SETTINGS: Endpoint = {
  method: 'PUT',
  template: '/governance/settings',
  permission: MANAGE,
  openapi: {
    operationId: 'putGovernanceSettings',
    tags: ['governance'],
    summary: 'Replace the policy settings (a new version)',
    description:
      'Send `If-Match` with the ETag of the version you read to refuse a concurrent change (412). Evaluations submitted afterwards use the new version and record it; stored results change at their next evaluation.',
    requestBody: schemaRef('GovernanceSettingsBody'),
    success: { status: 200, data: 'GovernanceSettings', description: 'Stored as a new version', headers: ['ETag'] },
    errors: {
      403: 'Authentication rows, or `Key lacks governance:manage permission`',
      412: '`Settings version mismatch` (`If-Match` is not the current version)',
      422: '`Invalid request body` (unknown policy or parameter, a value outside its declared bounds)',
    },
  },
};

/** The settings endpoints. */
export const SETTINGS_ENDPOINTS: readonly Endpoint[] = [GET_SETTINGS, PUT_SETTINGS];

/** The ETag of a settings version. */
export const settingsEtag = (version: number): string => `"${version}"`;

/** `data` of the settings (defaults at version 0). */
export function settingsView(r: GovernanceSettingsRecord | undefined): Record<string, unknown> {
  return {
    version: r?.version ?? 0,
    disabled_policies: r?.settings.disabled_policies ?? [],
    severity_overrides: r?.settings.severity_overrides ?? {},
    parameters: r?.settings.parameters ?? {},
    updated_at: r?.updated_at ?? null,
    updated_by: r?.updated_by ?? null,
  };
}

/** The version an `If-Match` names, null when absent or `*`, NaN when unreadable. */
function expectedVersion(ifMatch: string | undefined): number | null {
  if (ifMatch === undefined || ifMatch.trim() === '*') return null;
  const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(ifMatch);
  return m ? Number(m[1]) : Number.NaN;
}

/** `GET /governance/settings` for the organization, with its ETag. */
export async function getSettings(deps: RouteDeps, orgId: string): Promise<Outcome> {
  const r = await deps.store.governance.getSettings(orgId);
  return { data: settingsView(r), headers: [['etag', settingsEtag(r?.version ?? 0)]] };
}

/** `PUT /governance/settings` for the organization by `actor`; `ifMatch` the request's `If-Match`. */
export async function putSettings(
  deps: RouteDeps,
  orgId: string,
  actor: string,
  ifMatch: string | undefined,
  body: Buffer,
): Promise<Outcome> {
  const expected = expectedVersion(ifMatch);
  if (Number.isNaN(expected))
    return refuse(
      fail(API_ERRORS.settingsVersionMismatch, { detail: 'If-Match must be the ETag of a settings version' }),
    );
  const parsed = parseJsonBody(body);
  if (!parsed.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: parsed.detail }));
  const rules = await deps.store.governance.listRules(orgId);
  const known = new Set([...POLICIES.map((p) => p.code), ...rules.map((r) => r.code)]);
  const checked = validateSettings(parsed.value, known);
  if (!checked.ok) return refuse(fail(API_ERRORS.invalidBody, { detail: checked.detail }));
  const put = await deps.store.governance.putSettings(
    orgId,
    expected,
    checked.settings,
    new Date(deps.now()).toISOString(),
    actor,
  );
  if (!put.ok)
    return refuse(
      fail(API_ERRORS.settingsVersionMismatch, {
        detail: `the current version is ${put.currentVersion}`,
        headers: [['etag', settingsEtag(put.currentVersion)]],
      }),
    );
  await deps.audit.record(orgId, actor, 'settings.update', `v${put.record.version}`);
  return { data: settingsView(put.record), headers: [['etag', settingsEtag(put.record.version)]] };
}

/** The two settings routes. */
export function settingsRoutes(deps: RouteDeps): Route[] {
  return [
    {
      ...GET_SETTINGS,
      async handle(_req, ctx) {
        return publicAnswer(await getSettings(deps, ctx.key!.org_id), ctx.watermark!);
      },
    },
    {
      ...PUT_SETTINGS,
      async handle(req, ctx) {
        const key = ctx.key!;
        const o = await putSettings(deps, key.org_id, actorOf(key.key_id), req.headers['if-match'], req.body);
        return publicAnswer(o, ctx.watermark!);
      },
    },
  ];
}
