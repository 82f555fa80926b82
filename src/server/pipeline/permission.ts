/** @module server/pipeline/permission: per-endpoint permissions (spec §5.3; design notes "Permissions"). */
import type { Permission } from '../../model/records.js';
import type { ApiErrorRow } from '../errors.js';
import type { ApiResponse, RequestContext } from '../http/types.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';

const MISSING: Readonly<Record<Permission, ApiErrorRow>> = {
  'governance:evaluate': API_ERRORS.lacksEvaluate,
  'governance:read': API_ERRORS.lacksRead,
  'webhooks:manage': API_ERRORS.lacksWebhooks,
  'governance:manage': API_ERRORS.lacksManage,
};

/** 403 `Key lacks <permission> permission` when the key does not hold the route's permission. */
export function checkPermission(ctx: RequestContext, permission: Permission): ApiResponse | null {
  return ctx.key!.permissions.includes(permission) ? null : fail(MISSING[permission]);
}
