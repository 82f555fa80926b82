/**
 * Cluster mode (issue 16) with three in-process nodes on one Redis (same REDIS_URL, REDIS_PREFIX and
 * secrets): a batch submitted on one node is polled on another and its token redeemed on a third;
 * a result token is redeemed once of 100 concurrent tries spread over the nodes; a signature
 * accepted by one node is a replay on the others; a key's minute limit holds across the nodes, for calls in sequence and at once; a key
 * revoked with the admin CLI is refused by every node within the key cache's second; the organization
 * rollup counts each scenario once when the same scenarios are evaluated on several nodes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation, send, signRequest, type ClientResponse } from '../../src/client/client.js';
import type {
  EvaluationReply,
  EvaluationStatus,
  Reply,
  ResultsFetch,
  Rollup,
  ScenarioResults,
  StoredSubmitResult,
} from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { dataOf, errorOf, expectError } from '../helpers/assertions.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';

const ADMIN = fileURLToPath(new URL('../../src/cli/admin.js', import.meta.url));
const FAST_POLL = { delaysMs: [50, 100, 200], timeoutMs: 30_000 };
const NODES = 3;

/** Three blueprints with different findings (so different scores): credentials leak, no error handling, clean. */
const BLUEPRINTS = [
  bp(
    [
      m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
      m(2, 'http:ActionSendData', {
        version: 3,
        mapper: {
          url: 'http://api.example.com/orders',
          method: 'post',
          headers: [{ name: 'Authorization', value: `Bearer sk_live_${fakeToken(7, 32)}` }],
        },
      }),
    ],
    { dlq: false },
    { instant: true },
  ),
  bp([m(1, 'google-sheets:watchRows', { version: 2 }), m(2, 'slack:CreateMessage', { mapper: { text: 'hi' } })]),
  bp([
    m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 50 } }),
    m(2, 'google-sheets:addRow', {
      version: 2,
      onerror: [m(4, 'slack:CreateMessage', { mapper: { text: 'Row failed: {{error.message}}' } }), ...breakHandler(3)],
    }),
  ]),
];

/** Starts `n` nodes with one environment; a node that fails to start does not leave the others running. */
async function startNodes(n: number, env: Record<string, string>): Promise<TestServer[]> {
  const started = await Promise.allSettled(Array.from({ length: n }, () => startTestServer({ env })));
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(nodes.map((node) => node.close()));
    throw failed.reason;
  }
  return nodes;
}

/** Imports `ids` (blueprint `BLUEPRINTS[i % 3]` each) into `orgId` through one node's store (it is the cluster's). */
async function importAll(node: TestServer, orgId: string, ids: readonly string[]): Promise<void> {
  for (const [i, id] of ids.entries())
    await importScenario(node.server.store.scenarios, orgId, id, JSON.stringify(BLUEPRINTS[i % BLUEPRINTS.length]));
}

/** Submits a stored batch and returns its id and token. */
async function submit(client: GovernanceClient, ids: readonly string[], tag: string): Promise<StoredSubmitResult> {
  return dataOf(await client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ids, tag }));
}

/** Polls until terminal and returns the final status view, asserting it is `complete`. */
async function completed(client: GovernanceClient, evaluationId: string): Promise<EvaluationStatus> {
  const final = dataOf(await pollEvaluation<EvaluationReply>(client, evaluationId, FAST_POLL));
  assert.equal(final.status, 'complete', JSON.stringify(final));
  return final;
}

/**
 * Waits for the next clock minute when fewer than 5 s are left of this one (a test's calls must fall in
 * one minute window), and returns the minute's number.
 */
async function roomInMinute(): Promise<number> {
  const intoMinuteMs = Date.now() % 60_000;
  if (intoMinuteMs > 55_000) await sleep(60_000 - intoMinuteMs + 100);
  return Math.floor(Date.now() / 60_000);
}

/** Scenarios this node's pool evaluated successfully so far (`gov_scenarios_evaluated_total{outcome="ok"}`). */
async function evaluatedOn(node: TestServer): Promise<number> {
  const metric = await node.server.metrics!.scenarios.get();
  return metric.values.find((v) => v.labels['outcome'] === 'ok')?.value ?? 0;
}

describe('cluster mode: three nodes on one Redis', () => {
  let env: Record<string, string>;
  let nodes: TestServer[] = [];
  let orgId: string;
  /** One client per node, all with node A's organization key. */
  let clients: GovernanceClient[];
  const clientsFor = (credentials: { apiKey: string; signingSecret: string }) =>
    nodes.map((node) => new GovernanceClient(node.baseUrl, credentials));

  /** One client per node with a new key of 60 calls a minute and 1,000 an hour (spec §8 defaults). */
  const limitedClients = async () => {
    const issued = await nodes[0]!.server.keys.createKey(orgId, { perMinute: 60, perHour: 1000 });
    return clientsFor({ apiKey: issued.api_key, signingSecret: issued.signing_secret });
  };

  before(async () => {
    env = await redisClusterEnv();
    nodes = await startNodes(NODES, env);
    orgId = nodes[0]!.orgId;
    clients = clientsFor(nodes[0]!.creds);
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  });

  it('completes a batch submitted on A, polled on B; its token redeemed on C is then refused on A and B', async () => {
    const [a, b, c] = clients as [GovernanceClient, GovernanceClient, GovernanceClient];
    const ids = ['flow-1', 'flow-2', 'flow-3'];
    await importAll(nodes[0]!, orgId, ids);
    const submitted = await submit(a, ids, 'flow');
    const final = await completed(b, submitted.evaluation_id);
    assert.equal(final.completed, ids.length);
    assert.deepEqual(
      final.scenarios?.map((s) => [s.id, s.error]),
      ids.map((id) => [id, undefined]),
    );
    const redeemed = await c.call<Reply<ResultsFetch>>('POST', '/results/fetch', {
      result_token: submitted.result_token,
    });
    assert.equal(redeemed.status, 200, redeemed.raw);
    const fetched = dataOf(redeemed);
    assert.ok(fetched.status === 'complete', redeemed.raw);
    assert.deepEqual(
      fetched.scenarios.map((s) => s.scenario_id),
      ids,
    );
    for (const [i, other] of [a, b].entries()) {
      const again = await other.call('POST', '/results/fetch', { result_token: submitted.result_token, again: i });
      expectError(again, 401, 'Invalid, expired, or already-used result token');
    }
  });

  it('redeems a result token exactly once of 100 concurrent tries spread round-robin over the nodes', async () => {
    await importAll(nodes[0]!, orgId, ['race-1', 'race-2']);
    const submitted = await submit(clients[0]!, ['race-1', 'race-2'], 'race');
    await completed(clients[1]!, submitted.evaluation_id);
    // Each try's body differs (`try`), so no two share a signature: identical ones would be replays (403).
    const tries = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        clients[i % NODES]!.call<Reply<ResultsFetch>>('POST', '/results/fetch', {
          result_token: submitted.result_token,
          try: i,
        }),
      ),
    );
    const won = tries.filter((r) => r.status === 200);
    assert.equal(won.length, 1, `successes: ${won.map((r) => r.raw.slice(0, 200)).join(' | ')}`);
    const body = dataOf(won[0]!);
    assert.ok(body.status === 'complete' && body.scenarios.length === 2, won[0]!.raw);
    const refused = tries.filter((r) => r.status !== 200);
    assert.equal(refused.length, 99);
    for (const r of refused) expectError(r, 401, 'Invalid, expired, or already-used result token');
  });

  it('refuses on B and C, as a replay, the exact bytes of a signed POST that A accepted', async () => {
    const path = '/api/public/v1/evaluate/inline';
    const body = JSON.stringify({ blueprint: BLUEPRINTS[2] });
    const t = Math.floor(Date.now() / 1000);
    const headers = {
      authorization: `Bearer ${nodes[0]!.creds.apiKey}`,
      'x-service-signature': signRequest(nodes[0]!.creds.signingSecret, t, 'POST', path, body),
      'content-type': 'application/json',
    };
    const sendTo = (node: TestServer) => send(new URL(path, node.baseUrl), 'POST', { ...headers }, body);
    const first = await sendTo(nodes[0]!);
    assert.equal(first.status, 200, first.raw);
    for (const node of [nodes[1]!, nodes[2]!, nodes[0]!]) {
      const replay = await sendTo(node);
      expectError(replay, 403, 'Invalid request signature');
      assert.match(String((replay.body as { detail?: unknown }).detail), /replay/);
    }
    // The same bytes sent to the three nodes at once, signed anew: exactly one node accepts them.
    const t2 = t + 1;
    const fresh = {
      ...headers,
      'x-service-signature': signRequest(nodes[0]!.creds.signingSecret, t2, 'POST', path, body),
    };
    const raced = await Promise.all(nodes.map((node) => send(new URL(path, node.baseUrl), 'POST', { ...fresh }, body)));
    assert.deepEqual(
      raced.map((r) => r.status).sort(),
      [200, 403, 403],
      raced.map((r) => r.raw.slice(0, 120)).join(' | '),
    );
  });

  it('admits exactly 60 of 61 calls of a 60/min key spread round-robin over the nodes; then 429 with Retry-After', async () => {
    const limited = await limitedClients();
    const minute = await roomInMinute();
    const answers: ClientResponse[] = [];
    for (let i = 0; i < 64; i++) answers.push(await limited[i % NODES]!.call('GET', `/governance/policies?n=${i}`));
    assert.equal(Math.floor(Date.now() / 60_000), minute, 'the calls fell in one clock minute');
    const statuses = answers.map((r) => r.status);
    const admitted = statuses.filter((s) => s === 200).length;
    assert.deepEqual(
      statuses
        .slice(0, 60)
        .map((s, i) => (s === 200 ? null : `call ${i + 1} (node ${i % NODES}): ${s}`))
        .filter(Boolean),
      [],
      `every one of the first 60 calls is admitted (admitted ${admitted} of 64 in total)`,
    );
    for (const [i, r] of answers.slice(60).entries()) {
      expectError(r, 429, 'Rate limit exceeded');
      assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/, `call ${61 + i}: Retry-After`);
    }
  });

  it('admits at most 60 of 61 concurrent calls of a 60/min key spread round-robin over the nodes, no node hoarding the budget; the rest get 429 for the minute', async () => {
    const limited = await limitedClients();
    const minute = await roomInMinute();
    const answers = await Promise.all(
      Array.from({ length: 61 }, (_, i) => limited[i % NODES]!.call('GET', `/governance/policies?burst=${i}`)),
    );
    assert.equal(Math.floor(Date.now() / 60_000), minute, 'the calls fell in one clock minute');
    const admittedBy = limited.map(
      (_, node) => answers.filter((r, i) => i % NODES === node && r.status === 200).length,
    );
    const retryAfter = [
      ...new Set(answers.filter((r) => r.status === 429).map((r) => String(r.headers['retry-after']))),
    ];
    const summary = `admitted per node ${admittedBy.join(', ')}; statuses ${[...new Set(answers.map((r) => r.status))].join(', ')}; Retry-After ${retryAfter.join(', ')} s`;
    // Never above the limit in total. Below it only by the slices a node leased for calls that then
    // went to other nodes (leases are how a node admits without a Redis round trip per call; the
    // sequential case above shows the exact 61st refusal): a few calls, never most of the minute
    // (before one lease at a time per node, a burst left 21 of 60 admitted, all on one node).
    const total = admittedBy.reduce((x, y) => x + y, 0);
    assert.ok(total <= 60, `never more than the limit (${summary})`);
    assert.ok(total >= 50, `at most a few calls' budget stranded in other nodes' slices (${summary})`);
    assert.ok(admittedBy.filter((n) => n > 0).length === NODES, `every node admits some (${summary})`);
    for (const r of answers.filter((a) => a.status !== 200)) {
      expectError(r, 429, 'Rate limit exceeded');
      const seconds = Number(r.headers['retry-after']);
      assert.ok(
        seconds >= 1 && seconds <= 60,
        `the minute is exhausted, not the hour (61 of 1000 calls): Retry-After ${seconds} s (${summary})`,
      );
    }
  });

  it('refuses a key on every node at the latest 1.2 s after the admin CLI revoked it', async () => {
    const issued = await nodes[0]!.server.keys.createKey(orgId, { perMinute: 10_000, perHour: 100_000 });
    const doomed = clientsFor({ apiKey: issued.api_key, signingSecret: issued.signing_secret });
    const cliDataDir = mkdtempSync(join(tmpdir(), 'gov-cluster-cli-'));
    // Every node answers the key every 100 ms from before the CLI starts, so each holds it in its key cache throughout.
    const seen: { at: number; status: number }[][] = doomed.map(() => []);
    let cliStartedAt = Number.POSITIVE_INFINITY;
    let cliReturnedAt = Number.POSITIVE_INFINITY;
    let n = 0;
    const poll = async (node: number): Promise<void> => {
      while (Date.now() < cliReturnedAt + 1_500) {
        const r = await doomed[node]!.call('GET', `/governance/policies?poll=${n++}`);
        seen[node]!.push({ at: Date.now(), status: r.status });
        if (r.status === 401) assert.equal(errorOf(r.body), 'Invalid or expired API key');
        await sleep(100);
      }
    };
    const polling = Promise.all(doomed.map((_, node) => poll(node)));
    try {
      await sleep(300);
      cliStartedAt = Date.now();
      const cli = await runAdmin(
        ['--store', 'redis', '--redis-url', env['REDIS_URL']!, 'keys', 'revoke', issued.key_id],
        {
          ...env,
          DATA_DIR: cliDataDir,
        },
      );
      cliReturnedAt = Date.now();
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal((JSON.parse(cli.stdout) as { key_id: string }).key_id, issued.key_id);
    } finally {
      cliReturnedAt = Math.min(cliReturnedAt, Date.now());
      await polling;
      rmSync(cliDataDir, { recursive: true, force: true });
    }
    for (const [node, answers] of seen.entries()) {
      assert.ok(
        answers.some((a) => a.status === 200 && a.at > cliStartedAt),
        `node ${node} accepted (so held in its cache) the key while the CLI ran`,
      );
      const firstRefusal = answers.findIndex((a) => a.status === 401);
      assert.ok(firstRefusal >= 0, `node ${node} refused the key: ${JSON.stringify(answers.slice(-5))}`);
      const delay = answers[firstRefusal]!.at - cliReturnedAt;
      assert.ok(delay <= 1_200, `node ${node} refused the key ${delay} ms after the CLI returned`);
      assert.deepEqual(
        answers.slice(firstRefusal).filter((a) => a.status !== 401),
        [],
        `node ${node} never accepts the key again`,
      );
    }
  });

  it('counts each scenario once in the rollup when the same scenarios are evaluated on several nodes', async () => {
    const org = await nodes[0]!.addOrg('Rollup Org');
    const own = clientsFor(org.client.credentials);
    const ids = ['r-1', 'r-2', 'r-3', 'r-4', 'r-5'];
    await importAll(nodes[0]!, org.orgId, ids);
    const before = await Promise.all(nodes.map(evaluatedOn));
    // Six batches of the same five scenarios at once, each submitted on another node: the nodes' workers share the chunks.
    const batches = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(own[i % NODES]!, ids, `round-${i}`)));
    const finals = await Promise.all(batches.map((s, i) => completed(own[(i + 1) % NODES]!, s.evaluation_id)));
    const ranOn = (await Promise.all(nodes.map(evaluatedOn))).map((v, i) => v - before[i]!);
    assert.equal(
      ranOn.reduce((x, y) => x + y, 0),
      6 * ids.length,
      `scenarios evaluated per node: ${ranOn.join(', ')}`,
    );
    assert.ok(ranOn.filter((v) => v > 0).length >= 2, `evaluated on several nodes: ${ranOn.join(', ')}`);
    for (const final of finals)
      assert.deepEqual(
        final.scenarios?.map((s) => s.error),
        ids.map(() => undefined),
      );
    // The expected score: the mean of each scenario's latest score (an evaluation of a blueprint gives the same score).
    const latest = await Promise.all(
      ids.map(async (id) => dataOf(await own[2]!.call<Reply<ScenarioResults>>('GET', `/scenarios/${id}/results`))),
    );
    const scores = latest.map((r) => r.score);
    assert.ok(
      scores.every((s) => typeof s === 'number'),
      'every scenario has a score',
    );
    const sum = scores.reduce<number>((x, y) => x + (y ?? 0), 0);
    assert.ok(new Set(scores).size > 1, `the scenarios' scores differ (${scores.join(', ')}): a double count shows`);
    for (const client of own) {
      const rollup = dataOf(await client.call<Reply<Rollup>>('GET', '/organization/rollup'));
      assert.equal(rollup.scenarios_total, ids.length);
      assert.equal(rollup.scenarios_evaluated, ids.length, 'each scenario counted once');
      assert.equal(rollup.score, Math.round((sum / ids.length) * 10) / 10);
    }
    const stored = await nodes[1]!.server.store.results.rollup(org.orgId);
    const rebuilt = await nodes[1]!.server.store.results.computeRollup(org.orgId, new Date().toISOString());
    assert.ok(stored, 'the rollup record exists');
    assert.equal(stored.score_sum, sum);
    const { updated_at: _a, ...storedRest } = stored;
    const { updated_at: _b, ...rebuiltRest } = rebuilt;
    assert.deepEqual(
      storedRest,
      rebuiltRest,
      'the incrementally kept rollup equals the rollup rebuilt from the results',
    );
  });
});

/** Runs the admin CLI with `env` (not the test process's) and resolves with its exit status and output. */
function runAdmin(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [ADMIN, ...args, '--json'],
      { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
