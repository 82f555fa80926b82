/**
 * @module cli/gen-openapi-examples: captures an example of every operation of the OpenAPI document
 * from a real run (`npm run docs:openapi-examples`, then `npm run docs:openapi`). It starts the real
 * server on a loopback ephemeral port with a temporary DATA_DIR (as the integration tests do), sends
 * each operation as a client would (signed requests; a console session for the console operations),
 * and writes the requests and responses to src/server/openapi/examples.json. Ids and timestamps stay
 * as they came; the webhook secret and the generated password are replaced by placeholders of the
 * same form, and the policy catalog is cut to its first entries (the examples' summaries say so).
 * @throws Error when a response has another status than expected (nothing is written then).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { Example, OperationExamples } from '../server/openapi/examples.js';
import { importScenario } from '../actors/scenarios.js';
import { GovernanceClient, send, type ClientResponse } from '../client/client.js';
import { loadConfig } from '../server/config.js';
import { startServer } from '../server/server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = join(ROOT, 'src/server/openapi/examples.json');
/** Catalog entries kept in the `listPolicies` example (the whole catalog is the response itself). */
const CATALOG_ENTRIES_KEPT = 3;
/** Shown instead of a webhook's signing secret (a credential, even of a discarded server). */
const WEBHOOK_SECRET_PLACEHOLDER = 'whsec_PLACEHOLDER-the-secret-is-shown-once-here';
/** Shown instead of the result token's signature: header and payload stay as they came. */
const TOKEN_SIGNATURE_PLACEHOLDER = 'PLACEHOLDER-signature';

type Json = Record<string, unknown>;
type Mutable = { request?: Record<string, Example>; responses: Record<string, Record<string, Example>> };

const examples: Record<string, Mutable> = {};
const entry = (operationId: string): Mutable => (examples[operationId] ??= { responses: {} });

/**
 * Records one exchange: the request body (when given) and the response under its status.
 * @throws Error when the status is not `expected`.
 */
function record(
  operationId: string,
  name: string,
  summary: string,
  expected: number,
  res: ClientResponse,
  body?: unknown,
): Json {
  if (res.status !== expected)
    throw new Error(`${operationId} ${name}: ${res.status} (expected ${expected}) ${res.raw}`);
  const e = entry(operationId);
  // A refused request is no example of the request schema: it is shown with the error it got.
  const refused = body !== undefined && expected >= 400;
  if (body !== undefined && !refused) (e.request ??= {})[name] = { summary, value: body };
  (e.responses[String(expected)] ??= {})[name] = {
    summary,
    ...(refused && { description: `The request body: \`${JSON.stringify(body)}\`` }),
    value: res.body,
  };
  return res.body as Json;
}

const dataOf = (body: Json): Json => body['data'] as Json;
const sleep = async (ms: number) => new Promise((r) => setTimeout(r, ms));
const blueprintFile = (name: string) => readFileSync(join(ROOT, 'examples', `${name}.blueprint.json`), 'utf8');

/** A small blueprint: a webhook trigger, an HTTP call with a key in its URL, a Slack message with an error handler. */
const SMALL_BLUEPRINT = {
  name: 'Order webhook to Slack',
  flow: [
    {
      id: 1,
      module: 'gateway:CustomWebHook',
      version: 1,
      parameters: { hook: 101, maxResults: 1 },
      mapper: {},
      metadata: { designer: { x: 0, y: 0 } },
    },
    {
      id: 2,
      module: 'http:ActionSendData',
      version: 3,
      parameters: { handleErrors: false },
      mapper: { url: 'http://api.example.com/orders?api_key=a8f5f167f44f4964e6c998dee827110c', method: 'post' },
      metadata: { designer: { x: 300, y: 0 } },
    },
    {
      id: 3,
      module: 'slack:CreateMessage',
      version: 4,
      parameters: { __IMTCONN__: 4242 },
      mapper: { channel: 'C024BE91L', text: 'New order from {{1.email}}' },
      metadata: { designer: { x: 600, y: 0 } },
      onerror: [{ id: 4, module: 'builtin:Ignore', version: 1, metadata: { designer: { x: 600, y: 300 } } }],
    },
  ],
  metadata: {
    instant: true,
    version: 1,
    zone: 'eu2.make.com',
    scenario: {
      roundtrips: 1,
      maxErrors: 3,
      autoCommit: true,
      autoCommitTriggerLast: true,
      sequential: false,
      slots: null,
      confidential: false,
      dataloss: false,
      dlq: false,
      freshVariables: false,
    },
    designer: { orphans: [] },
  },
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-examples-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    POOL_THREADS: '1',
    LOG_LEVEL: 'silent',
    METRICS_PORT: '0',
  });
  const server = await startServer(config, { logger: pino({ level: 'silent' }) });
  let token = '';
  try {
    const baseUrl = `http://127.0.0.1:${server.port}`;
    const org = await server.keys.createOrg('Acme Automation');
    const issued = await server.keys.createKey(org.org_id, { name: 'ci', perMinute: 10_000, perHour: 100_000 });
    const client = new GovernanceClient(baseUrl, { apiKey: issued.api_key, signingSecret: issued.signing_secret });
    await importScenario(server.store.scenarios, org.org_id, 'order-webhook', JSON.stringify(SMALL_BLUEPRINT));
    await importScenario(server.store.scenarios, org.org_id, 'lead-enrichment', blueprintFile('lead-enrichment'));
    const made = await publicOperations(client);
    token = made.resultToken;
    await consoleOperations(baseUrl, server, org.org_id, made);
    await sleep(1100); // the redeliveries above must not be refused as replays of each other
    record('deleteWebhook', 'deleted', 'Deleted', 200, await client.call('DELETE', `/webhooks/${made.webhookId}`));
    record(
      'deleteCustomRule',
      'deleted',
      'Deleted (its code is never reused)',
      200,
      await client.call('DELETE', `/governance/rules/${made.ruleCode}`),
    );
    const doc = await send<Json>(new URL('/api/public/v1/openapi.json', baseUrl), 'GET', {}, '');
    const { openapi, info, servers } = doc.body;
    record('getOpenApi', 'document', 'This document (abridged here to `openapi`, `info` and `servers`)', 200, {
      ...doc,
      body: { openapi, info, servers },
    });
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
  const text = JSON.stringify(sorted satisfies Record<string, OperationExamples>, null, 2).replaceAll(
    token,
    `${token.slice(0, token.lastIndexOf('.') + 1)}${TOKEN_SIGNATURE_PLACEHOLDER}`,
  );
  writeFileSync(OUT, `${text}\n`);
  process.stdout.write(`wrote ${OUT} (${Object.keys(sorted).length} operations)\n`);
}

/** What the console operations and the final deletions reuse. */
interface Made {
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly ruleCode: string;
  readonly resultToken: string;
}

/** The public API, in the order a client uses it (deletions come last, in `main`). */
async function publicOperations(client: GovernanceClient): Promise<Made> {
  const hookBody = {
    url: 'https://hooks.example.com/governance',
    events: ['evaluation.complete'],
    description: 'Governance alerts',
  };
  const hook = dataOf(
    record(
      'createWebhook',
      'register',
      'Registered; the secret is shown once',
      201,
      await client.call('POST', '/webhooks', hookBody),
      hookBody,
    ),
  );
  hook['secret'] = WEBHOOK_SECRET_PLACEHOLDER; // a placeholder: the real one is a credential
  const webhookId = String(hook['webhook_id']);

  const stored = { scenario_ids: ['order-webhook', 'lead-enrichment'] };
  const submitted = dataOf(
    record(
      'submitEvaluation',
      'stored',
      'Stored scenarios: a result token',
      200,
      await client.call('POST', '/evaluate', stored),
      stored,
    ),
  );
  const evaluationId = String(submitted['evaluation_id']);
  const running = await client.call('GET', `/evaluations/${evaluationId}`);
  if ((dataOf(running.body as Json)['status'] as string) !== 'complete')
    record('getEvaluation', 'running', 'Still running', 200, running);
  let done: ClientResponse;
  for (;;) {
    done = await client.call('GET', `/evaluations/${evaluationId}`);
    const status = dataOf(done.body as Json)['status'];
    if (status === 'complete' || status === 'error') break;
    await sleep(100);
  }
  record('getEvaluation', 'complete', 'Complete, with a summary per scenario', 200, done);
  const ephemeral = { blueprints: [SMALL_BLUEPRINT] };
  record(
    'submitEvaluation',
    'ephemeral',
    'Ephemeral blueprints: no token, no webhook',
    200,
    await client.call('POST', '/evaluate', ephemeral),
    ephemeral,
  );
  const both = { scenario_ids: ['order-webhook'], blueprints: [{ name: 'Hand-written', flow: [] }] };
  record(
    'submitEvaluation',
    'both_forms',
    'Both forms in one body',
    422,
    await client.call('POST', '/evaluate', both),
    both,
  );
  const unknown = { scenario_ids: ['order-webhook', 'no-such-scenario'] };
  record(
    'submitEvaluation',
    'unknown_ids',
    'An id that does not resolve: nothing is evaluated',
    404,
    await client.call('POST', '/evaluate', unknown),
    unknown,
  );

  const inline = { blueprint: SMALL_BLUEPRINT, include_remediation: true };
  record(
    'evaluateInline',
    'with_remediation',
    'One blueprint, with remediation',
    200,
    await client.call('POST', '/evaluate/inline', inline),
    inline,
  );
  const badModule = { blueprint: { name: 'Hand-written', flow: [{ id: 1, module: 'webhook' }] } };
  record(
    'evaluateInline',
    'invalid_blueprint',
    'A module name without `app:`',
    422,
    await client.call('POST', '/evaluate/inline', badModule),
    badModule,
  );

  const results = dataOf(
    record(
      'getScenarioResults',
      'evaluated',
      'Latest results of a stored scenario',
      200,
      await client.call('GET', '/scenarios/order-webhook/results'),
    ),
  );
  const policy = (results['violations'] as { policy: string }[])[0]?.policy ?? 'SEC-1';
  record(
    'getRemediation',
    'steps',
    'Steps for one violation',
    200,
    await client.call('GET', `/violations/order-webhook:${policy}/remediation`),
  );

  const token = { result_token: String(submitted['result_token']) };
  record(
    'fetchResults',
    'complete',
    'Complete: the token is consumed',
    200,
    await client.call('POST', '/results/fetch', token),
    token,
  );
  await sleep(1100); // an identical signed request within one second is a replay (403)
  record(
    'fetchResults',
    'used',
    'The token was already redeemed',
    401,
    await client.call('POST', '/results/fetch', token),
    token,
  );

  const catalog = await client.call<Json>('GET', '/governance/policies');
  const policies = (dataOf(catalog.body)['policies'] as unknown[]).slice(0, CATALOG_ENTRIES_KEPT);
  record('listPolicies', 'catalog', `The catalog (here its first ${CATALOG_ENTRIES_KEPT} entries)`, 200, {
    ...catalog,
    body: { ...catalog.body, data: { ...dataOf(catalog.body), policies } },
  });
  record(
    'getOrganizationRollup',
    'rollup',
    'The organization after one evaluation',
    200,
    await client.call('GET', '/organization/rollup'),
  );

  record(
    'getGovernanceSettings',
    'defaults',
    'Never changed: version 0',
    200,
    await client.call('GET', '/governance/settings'),
  );
  const settings = {
    disabled_policies: ['ARC-4'],
    severity_overrides: { 'SEC-1': 'critical' },
    parameters: { max_modules: 30 },
  };
  record(
    'putGovernanceSettings',
    'override',
    'Disable a policy, raise a severity, set a parameter',
    200,
    await client.call('PUT', '/governance/settings', settings),
    settings,
  );

  const ruleBody = {
    title: 'No raw HTTP calls',
    severity: 'low',
    category: 'SEC',
    remediation: 'Use the app module instead of the HTTP module.',
    match: { app: 'http' },
  };
  const rule = dataOf(
    record(
      'createCustomRule',
      'rule',
      'A rule on every HTTP module',
      201,
      await client.call('POST', '/governance/rules', ruleBody),
      ruleBody,
    ),
  );
  const code = String(rule['code']);
  record('listCustomRules', 'rules', 'One rule', 200, await client.call('GET', '/governance/rules'));
  record('getCustomRule', 'rule', 'One rule', 200, await client.call('GET', `/governance/rules/${code}`));

  const waiverBody = {
    scenario_id: 'order-webhook',
    policy,
    reason: 'Accepted until the vendor migration ships',
    approver: 'Security review board',
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  };
  const waiver = dataOf(
    record(
      'createWaiver',
      'waiver',
      'Waive a policy on a scenario for 30 days',
      201,
      await client.call('POST', '/waivers', waiverBody),
      waiverBody,
    ),
  );
  const waiverId = String(waiver['waiver_id']);
  record('listWaivers', 'waivers', 'One active waiver', 200, await client.call('GET', '/waivers'));
  record('getWaiver', 'waiver', 'With its audit log', 200, await client.call('GET', `/waivers/${waiverId}`));
  record(
    'revokeWaiver',
    'revoked',
    'Revoked; the scenario is re-evaluated',
    200,
    await client.call('DELETE', `/waivers/${waiverId}`),
  );

  record('listWebhooks', 'webhooks', 'One webhook', 200, await client.call('GET', '/webhooks'));
  record('getWebhook', 'webhook', 'One webhook', 200, await client.call('GET', `/webhooks/${webhookId}`));
  const deliveries = dataOf(
    record(
      'listDeliveries',
      'deliveries',
      'The evaluation.complete delivery',
      200,
      await client.call('GET', `/webhooks/${webhookId}/deliveries`),
    ),
  );
  const deliveryId = String((deliveries['deliveries'] as Json[])[0]?.['delivery_id']);
  record(
    'redeliver',
    'queued',
    'Queued again',
    202,
    await client.call('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`),
  );
  return { webhookId, deliveryId, ruleCode: code, resultToken: token.result_token };
}

/** The console's session-authenticated operations (`Authorization: Bearer <session token>`). */
async function consoleOperations(
  baseUrl: string,
  server: Awaited<ReturnType<typeof startServer>>,
  orgId: string,
  made: Made,
): Promise<void> {
  await server.users.create(orgId, 'owner@acme.example', 'owner', 'correct horse battery staple');
  const login = await send<Json>(
    new URL('/api/v1/session', baseUrl),
    'POST',
    { 'content-type': 'application/json' },
    JSON.stringify({ email: 'owner@acme.example', password: 'correct horse battery staple' }),
  );
  if (login.status !== 200) throw new Error(`session: ${login.status} ${login.raw}`);
  const auth = { authorization: `Bearer ${String(dataOf(login.body)['session_token'])}` };
  const call = async (method: string, path: string, body?: unknown) =>
    send(
      new URL(`/api/v1${path}`, baseUrl),
      method,
      body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      body === undefined ? '' : JSON.stringify(body),
    );
  record('consoleOverview', 'overview', 'The fleet at a glance', 200, await call('GET', '/overview'));
  record('consoleListScenarios', 'scenarios', 'Sorted by score', 200, await call('GET', '/scenarios?sort=score'));
  record('consoleGetScenario', 'scenario', 'One scenario', 200, await call('GET', '/scenarios/order-webhook'));
  const hookBody = { url: 'https://hooks.example.com/console', events: ['evaluation.complete'] };
  const hook = dataOf(
    record(
      'consoleCreateWebhook',
      'register',
      'Registered; the secret is shown once',
      201,
      await call('POST', '/webhooks', hookBody),
      hookBody,
    ),
  );
  hook['secret'] = WEBHOOK_SECRET_PLACEHOLDER; // a placeholder: the real one is a credential
  const hookId = String(hook['webhook_id']);
  record('consoleListWebhooks', 'webhooks', 'Two webhooks', 200, await call('GET', '/webhooks'));
  record(
    'consoleListDeliveries',
    'deliveries',
    'The evaluation.complete delivery',
    200,
    await call('GET', `/webhooks/${made.webhookId}/deliveries`),
  );
  await sleep(1100);
  record(
    'consoleRedeliver',
    'queued',
    'Queued again',
    202,
    await call('POST', `/webhooks/${made.webhookId}/deliveries/${made.deliveryId}/redeliver`),
  );
  const waiverBody = {
    scenario_id: 'order-webhook',
    policy: 'SEC-1',
    reason: 'Test credentials only',
    expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  };
  const waiver = dataOf(
    record(
      'consoleCreateWaiver',
      'waiver',
      'Waive a policy for a week',
      201,
      await call('POST', '/waivers', waiverBody),
      waiverBody,
    ),
  );
  record('consoleListWaivers', 'waivers', 'Waivers of the organization', 200, await call('GET', '/waivers'));
  record(
    'consoleRevokeWaiver',
    'revoked',
    'Revoked',
    200,
    await call('DELETE', `/waivers/${String(waiver['waiver_id'])}`),
  );
  record(
    'consoleGetGovernanceSettings',
    'settings',
    'The settings in force',
    200,
    await call('GET', '/governance/settings'),
  );
  const settings = { disabled_policies: [], severity_overrides: {}, parameters: {} };
  record(
    'consolePutGovernanceSettings',
    'reset',
    'Back to the defaults',
    200,
    await call('PUT', '/governance/settings', settings),
    settings,
  );
  record('consoleListCustomRules', 'rules', 'Custom rules', 200, await call('GET', '/governance/rules'));
  record('consoleAudit', 'audit', 'Newest first', 200, await call('GET', '/audit?limit=5'));
  const userBody = { email: 'analyst@acme.example', role: 'member' };
  const user = dataOf(
    record(
      'consoleCreateUser',
      'member',
      'A member with a generated password (shown once)',
      201,
      await call('POST', '/users', userBody),
      userBody,
    ),
  );
  if (typeof user['password'] === 'string') user['password'] = 'generated-password-shown-once'; // a placeholder: the real one is a credential
  record('consoleListUsers', 'users', 'Users of the organization', 200, await call('GET', '/users'));
  record('consoleDeleteWebhook', 'deleted', 'Deleted', 200, await call('DELETE', `/webhooks/${hookId}`));
}

await main();
