/**
 * @module server/routes/endpoints: the declarations of every public endpoint, in the order of the
 * OpenAPI document. The document's `paths` are built from this list, and test/unit/openapi-routes
 * checks that it holds exactly the routes the server mounts (routes/public-routes.ts). The console's
 * session-authenticated `/api/v1` routes are not public API and stay out of both by design.
 */
import type { Endpoint } from '../endpoint.js';
import { SUBMIT_EVALUATION } from './evaluate.js';
import { GET_EVALUATION } from './evaluations.js';
import { EVALUATE_INLINE } from './inline.js';
import { GET_OPENAPI } from './openapi.js';
import { LIST_POLICIES } from './policies.js';
import { GET_REMEDIATION } from './remediation.js';
import { FETCH_RESULTS } from './results-fetch.js';
import { GET_ORGANIZATION_ROLLUP } from './rollup.js';
import { GET_SCENARIO_RESULTS } from './scenario-results.js';
import { WEBHOOK_ENDPOINTS } from './webhooks.js';
import { WAIVER_ENDPOINTS } from './waivers.js';
import { SETTINGS_ENDPOINTS } from './governance-settings.js';
import { RULE_ENDPOINTS } from './custom-rules.js';

/** Every public endpoint, once. */
export const PUBLIC_ENDPOINTS: readonly Endpoint[] = [
  SUBMIT_EVALUATION,
  EVALUATE_INLINE,
  GET_EVALUATION,
  GET_SCENARIO_RESULTS,
  GET_REMEDIATION,
  FETCH_RESULTS,
  LIST_POLICIES,
  GET_ORGANIZATION_ROLLUP,
  ...SETTINGS_ENDPOINTS,
  ...RULE_ENDPOINTS,
  ...WAIVER_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
  GET_OPENAPI,
];
