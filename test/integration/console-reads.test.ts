/**
 * The console's fleet reads over HTTP on the real server (issue 18, docs/console-api.md): a fleet of
 * 300 generated scenarios, evaluated, paged by score, filtered by badge and searched by name; a
 * scenario page with its history; the overview; and the role line between reads and changes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation, send } from '../../src/client/client.js';
import type { EvaluationStatus, Failure, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import type { FleetRow, HistoryEntry } from '../../src/store/fleet/repository.js';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf } from '../helpers/assertions.js';

const FLEET = 300;
type ConsoleReply<T> = { readonly ok: true; readonly data: T } | Failure;
interface ScenarioList {
  readonly scenarios: FleetRow[];
  readonly total: number;
  readonly next_cursor: string | null;
}
interface Overview {
  readonly rollup: { scenarios_total: number; scenarios_evaluated: number };
  readonly badges: Record<string, number>;
  readonly evaluations_by_day: { day: string; evaluations: number; scenarios: number }[];
}
interface ScenarioPage {
  readonly scenario: { scenario_id: string; name: string; version: number; module_count: number };
  readonly results: {
    scenario_id: string;
    evaluation_status?: string;
    violations: { status: string; failing_modules: { module_id: string }[] }[];
  };
  readonly remediation: Record<string, unknown>;
  readonly history: HistoryEntry[];
  readonly svg: string | null;
}

describe('console fleet reads', () => {
  let t: TestServer;
  let member: string;
  let admin: string;
  const evaluations: string[] = [];
  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) =>
    send<ConsoleReply<T>>(
      new URL(`/api/v1${path}`, t.baseUrl),
      method,
      { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body ? JSON.stringify(body) : '',
    );
  const signIn = async (email: string, role: 'member' | 'admin') => {
    await t.server.users.create(t.orgId, email, role, 'a long enough password');
    const res = await send<ConsoleReply<{ session_token: string }>>(
      new URL('/api/v1/session', t.baseUrl),
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email, password: 'a long enough password' }),
    );
    return dataOf(res).session_token;
  };

  async function evaluate(ids: string[]): Promise<void> {
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: ids.slice(i, i + 10),
      });
      assert.equal(submit.status, 200, submit.raw);
      evaluations.push(dataOf(submit).evaluation_id);
      pending.push(
        pollEvaluation<Reply<EvaluationStatus>>(t.client, dataOf(submit).evaluation_id, {
          delaysMs: [100, 200],
          timeoutMs: 120_000,
        }),
      );
      if (pending.length >= 8) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    await t.server.store.flushed();
  }

  async function pages(query: string, limit: number): Promise<{ rows: FleetRow[]; total: number }> {
    const rows: FleetRow[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const res: Awaited<ReturnType<typeof call<ScenarioList>>> = await call<ScenarioList>(
        'GET',
        `/scenarios?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        member,
      );
      assert.equal(res.status, 200, res.raw);
      const page: ScenarioList = dataOf(res);
      total = page.total;
      rows.push(...page.scenarios);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return { rows, total };
  }

  before(async () => {
    t = await startTestServer({ env: { POOL_THREADS: '2' } });
    const examples = exampleBlueprints();
    for (let i = 0; i < FLEET; i++)
      await importScenario(t.server.store.scenarios, t.orgId, `fleet-${i}`, JSON.stringify(variant(i, examples)));
    await evaluate(Array.from({ length: FLEET - 10 }, (_, i) => `fleet-${i}`)); // ten never evaluated
    member = await signIn('member@acme.test', 'member');
    admin = await signIn('admin@acme.test', 'admin');
  });
  after(() => t.close());

  it('pages by score ascending: the concatenated pages are the sort of all rows', async () => {
    const { rows: all, total } = await pages('sort=name', 200);
    assert.equal(total, FLEET);
    assert.equal(all.length, FLEET);
    const byScore = [...all].sort(
      (a, b) =>
        (a.score ?? Infinity) - (b.score ?? Infinity) ||
        Buffer.compare(Buffer.from(a.scenario_id), Buffer.from(b.scenario_id)),
    );
    const { rows } = await pages('sort=score&order=asc', 37);
    assert.deepEqual(
      rows.map((r) => r.scenario_id),
      byScore.map((r) => r.scenario_id),
    );
    assert.equal(rows.filter((r) => r.score === null).length, 10);
    const first = rows[0]!;
    assert.equal(typeof first.module_count, 'number');
    assert.ok(first.badge !== null && first.evaluated_at !== null);
  });

  it('filters by badge and searches by name', async () => {
    const { rows: all } = await pages('sort=name', 200);
    const badges = new Set(all.map((r) => r.badge ?? 'not_evaluated'));
    for (const badge of badges) {
      const { rows, total } = await pages(`badge=${badge}&sort=violations&order=desc`, 50);
      const want = all.filter((r) => (r.badge ?? 'not_evaluated') === badge);
      assert.equal(total, want.length, badge);
      assert.deepEqual(new Set(rows.map((r) => r.scenario_id)), new Set(want.map((r) => r.scenario_id)));
    }
    const name = all[17]!.name;
    const q = name.slice(0, Math.min(name.length, 8)).toUpperCase();
    const { rows, total } = await pages(`q=${encodeURIComponent(q)}`, 20);
    const want = all.filter(
      (r) => r.name.toLowerCase().includes(q.toLowerCase()) || r.scenario_id.toLowerCase().includes(q.toLowerCase()),
    );
    assert.equal(total, want.length);
    assert.deepEqual(
      rows.map((r) => r.scenario_id),
      want.map((r) => r.scenario_id),
    );
    const bad = await call('GET', '/scenarios?sort=colour&cursor=%%%', member);
    assert.equal(bad.status, 422, bad.raw);
  });

  it('opens a scenario page with its history after two evaluations', async () => {
    await evaluate(['fleet-3']);
    const res = await call<ScenarioPage>('GET', '/scenarios/fleet-3', member);
    assert.equal(res.status, 200, res.raw);
    const page = dataOf(res);
    assert.equal(page.scenario.scenario_id, 'fleet-3');
    assert.equal(page.results.scenario_id, 'fleet-3');
    // The scenario drawn (src/render, in a worker): every module once, the failing ones marked.
    assert.ok(page.svg?.startsWith('<svg'), 'an SVG');
    const failing = new Set(
      page.results.violations.flatMap((v) => (v.status === 'fail' ? v.failing_modules.map((f) => f.module_id) : [])),
    );
    for (const id of failing) assert.match(page.svg!, new RegExp(`data-module-id="${id}"`));
    assert.equal(page.history.length, 2);
    assert.equal(page.history[0]!.evaluation_id, evaluations.at(-1));
    assert.ok(page.history[0]!.evaluated_at > page.history[1]!.evaluated_at, 'newest first');
    const never = dataOf(await call<ScenarioPage>('GET', `/scenarios/fleet-${FLEET - 1}`, member));
    assert.equal(never.results.evaluation_status, 'not_evaluated');
    assert.deepEqual(never.history, []);
    assert.equal((await call('GET', '/scenarios/nope', member)).status, 404);
  });

  it('gives an overview whose badges sum to scenarios_total and counts today’s evaluations', async () => {
    const o = dataOf(await call<Overview>('GET', '/overview', member));
    const sum = Object.values(o.badges).reduce((a, b) => a + b, 0);
    assert.equal(sum, o.rollup.scenarios_total);
    assert.equal(o.rollup.scenarios_total, FLEET);
    assert.equal(o.badges['not_evaluated'], 10);
    assert.equal(o.evaluations_by_day.length, 30);
    const today = new Date().toISOString().slice(0, 10);
    const last = o.evaluations_by_day.at(-1)!;
    assert.equal(last.day, today);
    assert.equal(last.evaluations, evaluations.length);
    assert.equal(last.scenarios, FLEET - 10 + 1);
  });

  it('lets a member read but not change; an admin creates and revokes a waiver', async () => {
    for (const path of ['/webhooks', '/waivers', '/governance/settings', '/governance/rules'])
      assert.equal((await call('GET', path, member)).status, 200, path);
    const body = {
      scenario_id: 'fleet-5',
      policy: 'SEC-1',
      reason: 'accepted for the migration',
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    };
    const refused = await call('POST', '/waivers', member, body);
    assert.equal(refused.status, 403, refused.raw);
    const created = await call<{ waiver_id: string; created_by: string; status: string }>(
      'POST',
      '/waivers',
      admin,
      body,
    );
    assert.equal(created.status, 201, created.raw);
    const waiver = dataOf(created);
    const session = dataOf(
      await send<ConsoleReply<{ user: { user_id: string } }>>(
        new URL('/api/v1/session', t.baseUrl),
        'POST',
        { 'content-type': 'application/json' },
        JSON.stringify({ email: 'admin@acme.test', password: 'a long enough password' }),
      ),
    );
    assert.equal(waiver.created_by, `user:${session.user.user_id}`);
    const revoked = await call<{ status: string }>('DELETE', `/waivers/${waiver.waiver_id}`, admin);
    assert.equal(revoked.status, 200, revoked.raw);
    assert.equal(dataOf(revoked).status, 'revoked');
    assert.equal((await call('DELETE', `/waivers/${waiver.waiver_id}`, member)).status, 403);
  });
});
