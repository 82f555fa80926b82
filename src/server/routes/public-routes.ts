/**
 * @module server/routes/public-routes: the route table the server mounts under API_PREFIX. Every
 * route is built from its declaration in routes/endpoints.ts (test/unit/openapi-routes checks both
 * ways), so a new endpoint is declared once and appears in the router and the OpenAPI document.
 */
import type { WebhookDispatcher } from '../../actors/webhooks/dispatcher.js';
import type { Route } from '../router.js';
import type { RouteDeps } from './deps.js';
import { openApiDocument } from '../openapi/document.js';
import { evaluateRoute } from './evaluate.js';
import { evaluationStatusRoute } from './evaluations.js';
import { inlineRoute } from './inline.js';
import { openApiRoute } from './openapi.js';
import { policiesRoute } from './policies.js';
import { remediationRoute } from './remediation.js';
import { resultsFetchRoute } from './results-fetch.js';
import { rollupRoute } from './rollup.js';
import { scenarioResultsRoute } from './scenario-results.js';
import { webhookRoutes } from './webhooks.js';
import { waiverRoutes } from './waivers.js';
import { settingsRoutes } from './governance-settings.js';
import { customRuleRoutes } from './custom-rules.js';

/** The public routes. Building them reads no dependency: only the handlers use `deps` and `webhooks`. */
export function publicRoutes(deps: RouteDeps, webhooks: WebhookDispatcher): Route[] {
  return [
    evaluateRoute(deps),
    inlineRoute(deps),
    evaluationStatusRoute(deps),
    scenarioResultsRoute(deps),
    remediationRoute(deps),
    resultsFetchRoute(deps),
    policiesRoute(deps),
    rollupRoute(deps),
    ...settingsRoutes(deps),
    ...customRuleRoutes(deps),
    ...waiverRoutes(deps),
    openApiRoute(() => openApiDocument({ publicBaseUrl: deps.config.publicBaseUrl })),
    ...webhookRoutes(deps, webhooks),
  ];
}
