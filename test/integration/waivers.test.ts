/**
 * Waivers over HTTP on both backends (issue 17): a waiver takes its finding out of the score, the
 * badges and the rollup at once, `waiver.expiring` reaches a subscribed endpoint 7 days ahead, and at
 * expiry (an injected clock, never a sleep) the finding counts again with no write by the tenant;
 * revocation restores it too; every change is in the audit log; the error rows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { GovernanceClient } from '../../src/client/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { startReceiver } from '../helpers/receiver.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf, failureOf, fieldErrors, type RollupView } from './bodies.js';
import { DATE_TIME_RULE } from '../../src/model/rfc3339.js';

/** A Sheets write without an error handler (DI-1 fails on module 2) and default labels (ARC-4 warns). */
const blueprint = bp([m(1, 'http:ActionSendData'), m(2, 'google-sheets:addRow')]);
const POLL = { delaysMs: [20, 50], timeoutMs: 20_000 };
const DAY = 86_400_000;

interface WaiverView {
  waiver_id: string;
  scenario_id: string;
  policy: string;
  status: 'active' | 'expired' | 'revoked';
  expires_at: string;
  audit?: { at: string; actor: string; action: string; detail: string | null }[];
  reevaluation_id?: string | null;
}
interface Results {
  score: number;
  violations: {
    policy: string;
    waived?: { waiver_id: string; expires_at: string };
    failing_modules: { module_id: string; badge: string; waived?: unknown }[];
  }[];
  module_summary: { module_id: string; policies: string[] }[];
  waived_count: number;
  waivers_valid_until: string | null;
  failing_count: number;
}

for (const backend of ['lmdb', 'redis'] as const)
  describe(`waivers (${backend})`, () => {
    let t: TestServer;
    let nowMs = Date.UTC(2026, 10, 26, 9, 0, 0);
    const clock = () => nowMs;

    before(async () => {
      const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WAIVER_SWEEP_MS: '3600000' };
      t = await startTestServer({ now: clock, env: backend === 'redis' ? await redisClusterEnv(env) : env });
      await importScenario(t.server.store.scenarios, t.orgId, 'w1', JSON.stringify(blueprint));
      await importScenario(t.server.store.scenarios, t.orgId, 'w2', JSON.stringify(blueprint));
    });
    after(() => t.close());

    async function evaluate(ids: string[]): Promise<void> {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ids });
      assert.equal(submit.status, 200, submit.raw);
      await settle(dataOf(submit).evaluation_id);
    }
    async function settle(evaluationId: string): Promise<void> {
      const done = await pollEvaluation<Reply<EvaluationStatus>>(t.client, evaluationId, POLL);
      assert.equal(dataOf(done).status, 'complete', done.raw);
      await t.server.store.flushed();
    }
    async function results(id: string): Promise<Results> {
      const res = await t.client.call<Reply<Results>>('GET', `/scenarios/${id}/results`);
      assert.equal(res.status, 200, res.raw);
      return dataOf(res);
    }
    async function rollup(): Promise<
      RollupView & { waived_total: number; waived: { policy: string; scenarios: number }[] }
    > {
      const res = await t.client.call<
        Reply<RollupView & { waived_total: number; waived: { policy: string; scenarios: number }[] }>
      >('GET', '/organization/rollup');
      assert.equal(res.status, 200, res.raw);
      return dataOf(res);
    }
    async function createWaiver(body: Record<string, unknown>): Promise<WaiverView> {
      const res = await t.client.call<Reply<WaiverView>>('POST', '/waivers', body);
      assert.equal(res.status, 201, res.raw);
      return dataOf(res);
    }

    it('takes a waived finding out of the score, badges and rollup, and restores it at expiry by the clock', async () => {
      nowMs = Date.UTC(2026, 10, 26, 9, 0, 0);
      await evaluate(['w1', 'w2']);
      const before = await results('w1');
      const di1 = before.violations.find((v) => v.policy === 'DI-1');
      assert.ok(di1, 'DI-1 fails on the unhandled Sheets write');
      assert.equal(before.waived_count, 0);
      const rollupBefore = await rollup();

      const receiver = await startReceiver();
      const hook = await t.client.call<Reply<{ webhook_id: string }>>('POST', '/webhooks', {
        url: receiver.url,
        events: ['waiver.expiring'],
      });
      assert.equal(hook.status, 201, hook.raw);

      const expiresAt = new Date(nowMs + 10 * DAY).toISOString();
      const waiver = await createWaiver({
        scenario_id: 'w1',
        policy: 'DI-1',
        reason: 'Sheet is a scratch log; loss is acceptable until the Q1 rewrite',
        approver: 'CISO',
        expires_at: expiresAt,
      });
      assert.equal(waiver.status, 'active');
      assert.ok(waiver.reevaluation_id, 'the scenario is re-evaluated at once');
      await settle(waiver.reevaluation_id);

      const waived = await results('w1');
      const marked = waived.violations.find((v) => v.policy === 'DI-1');
      assert.deepEqual(marked?.waived, { waiver_id: waiver.waiver_id, expires_at: expiresAt }, 'kept and marked');
      assert.ok(marked?.failing_modules.every((f) => f.waived !== undefined) === true);
      assert.ok(waived.score > before.score, `score ${waived.score} > ${before.score}`);
      assert.equal(waived.waived_count, 1);
      assert.equal(waived.failing_count, before.failing_count - 1);
      assert.equal(waived.waivers_valid_until, expiresAt);
      assert.ok(!waived.module_summary.some((s) => s.policies.includes('DI-1')), 'no badge from a waived finding');
      const rollupWaived = await rollup();
      assert.equal(rollupWaived.violations_total, rollupBefore.violations_total - 1);
      assert.ok(rollupWaived.score! > rollupBefore.score!);
      assert.equal(rollupWaived.waived_total, 1);
      assert.deepEqual(rollupWaived.waived, [{ policy: 'DI-1', scenarios: 1 }]);
      assert.equal((await results('w2')).score, before.score, 'the other scenario with the same finding is not waived');

      // 7 days before expiry: waiver.expiring, once, however often the clock ticks.
      nowMs += 3 * DAY + 1000;
      const tick1 = await t.server.waiverClock.tick();
      assert.deepEqual(tick1, { notices: 1, expiries: 0, reevaluations: [] });
      assert.deepEqual(await t.server.waiverClock.tick(), { notices: 0, expiries: 0, reevaluations: [] });
      await receiver.waitFor(1);
      const event = JSON.parse(receiver.received[0]!.body) as { type: string; data: { waiver: WaiverView } };
      assert.equal(event.type, 'waiver.expiring');
      assert.equal(event.data.waiver.waiver_id, waiver.waiver_id);
      assert.equal((await results('w1')).score, waived.score, 'still waived');

      // Past expiry: the service re-evaluates; the finding counts again.
      nowMs = Date.parse(expiresAt) + 1000;
      const tick2 = await t.server.waiverClock.tick();
      assert.equal(tick2.notices, 0);
      assert.equal(tick2.expiries, 1);
      assert.equal(tick2.reevaluations.length, 1);
      await settle(tick2.reevaluations[0]!);
      const restored = await results('w1');
      assert.equal(restored.score, before.score);
      assert.equal(restored.violations.find((v) => v.policy === 'DI-1')?.waived, undefined);
      const rollupAfter = await rollup();
      assert.equal(rollupAfter.violations_total, rollupBefore.violations_total);
      assert.equal(rollupAfter.score, rollupBefore.score);
      assert.equal(rollupAfter.waived_total, 0);
      assert.deepEqual(rollupAfter.waived, []);

      const audit = await t.client.call<Reply<WaiverView>>('GET', `/waivers/${waiver.waiver_id}`);
      assert.equal(dataOf(audit).status, 'expired', 'kept for audit');
      assert.deepEqual(
        dataOf(audit).audit!.map((a) => a.action),
        ['created', 'expiring_notified', 'expired'],
      );
      assert.equal(dataOf(audit).audit![0]!.actor, `key:${t.creds.keyId}`);
      await t.client.call('DELETE', `/webhooks/${dataOf(hook).webhook_id}`);
      await receiver.close();
    });

    it('restores the finding when the waiver is revoked, and lists waivers newest first', async () => {
      nowMs += DAY;
      const before = await results('w2');
      const w = await createWaiver({
        scenario_id: 'w2',
        policy: 'DI-1',
        module_id: '2',
        reason: 'module-scoped',
        expires_at: new Date(nowMs + 30 * DAY).toISOString(),
      });
      await settle(w.reevaluation_id!);
      assert.ok((await results('w2')).score > before.score);
      const list = await t.client.call<Reply<{ waivers: WaiverView[]; next_after: string | null }>>(
        'GET',
        '/waivers?scenario_id=w2',
      );
      assert.equal(list.status, 200, list.raw);
      assert.equal(dataOf(list).waivers[0]!.waiver_id, w.waiver_id);
      const revoked = await t.client.call<Reply<WaiverView>>('DELETE', `/waivers/${w.waiver_id}`);
      assert.equal(revoked.status, 200, revoked.raw);
      assert.equal(dataOf(revoked).status, 'revoked');
      await settle(dataOf(revoked).reevaluation_id!);
      assert.equal((await results('w2')).score, before.score);
      const got = dataOf(await t.client.call<Reply<WaiverView>>('GET', `/waivers/${w.waiver_id}`));
      assert.deepEqual(
        got.audit!.map((a) => a.action),
        ['created', 'revoked'],
      );
    });

    it('refuses bad waivers with field errors, unknown ids with 404, and keys without governance:manage with 403', async () => {
      const base = { scenario_id: 'w1', policy: 'DI-1', reason: 'r', expires_at: new Date(nowMs + DAY).toISOString() };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, expires_at: new Date(nowMs - 1000).toISOString() }, '/expires_at'],
        [{ ...base, expires_at: new Date(nowMs + 400 * DAY).toISOString() }, '/expires_at'],
        [{ ...base, reason: undefined }, '/reason'],
        [{ ...base, policy: 'NOPE-1' }, '/policy'],
        [{ ...base, policy: 'ORG-999' }, '/policy'],
        [{ ...base, extra: 1 }, '/extra'],
      ];
      for (const [body, path] of cases) {
        const res = await t.client.call<Reply<unknown>>('POST', '/waivers', body);
        assert.equal(res.status, 422, res.raw);
        assert.ok(
          fieldErrors(res).some((e) => e.path === path),
          `${path} in ${res.raw}`,
        );
      }
      // The clock is in late 2026: each of these is within a year, and each is refused for its form.
      for (const expires of [
        '2027-02-30T00:00:00Z', // was stored as 2 March
        '2027-02-29T00:00:00Z', // 2027 is not a leap year
        '2027-03-01T00:00:00', // no offset: was read in the server's local zone
        '2027-03-01',
        '2027-03-01 00:00:00Z',
        '2027-03-01T00:00:00+0100',
      ]) {
        const res = await t.client.call<Reply<unknown>>('POST', '/waivers', { ...base, expires_at: expires });
        assert.equal(res.status, 422, `${expires}: ${res.raw}`);
        assert.deepEqual(fieldErrors(res), [{ path: '/expires_at', message: DATE_TIME_RULE }], expires);
      }
      const unknown = await t.client.call<Reply<unknown>>('POST', '/waivers', { ...base, scenario_id: 'nope' });
      assert.equal(unknown.status, 404);
      assert.equal(failureOf(unknown).error, 'Scenario not found');
      const missing = await t.client.call<Reply<unknown>>('GET', '/waivers/wvr_000000');
      assert.equal(missing.status, 404);
      assert.equal(failureOf(missing).error, 'Waiver not found');

      const narrow = await t.server.keys.createKey(t.orgId, {
        permissions: ['governance:read', 'governance:evaluate', 'webhooks:manage'],
      });
      const reader = new GovernanceClient(
        t.baseUrl,
        { apiKey: narrow.api_key, signingSecret: narrow.signing_secret },
        clock,
      );
      const denied = await reader.call<Reply<unknown>>('GET', '/waivers');
      assert.equal(denied.status, 403);
      assert.equal(failureOf(denied).error, 'Key lacks governance:manage permission');
    });

    it('keeps one organization out of another’s waivers', async () => {
      const other = await t.addOrg(`other-${backend}`);
      const mine = dataOf(await t.client.call<Reply<{ waivers: WaiverView[] }>>('GET', '/waivers'));
      assert.ok(mine.waivers.length > 0);
      const theirs = await other.client.call<Reply<WaiverView>>('GET', `/waivers/${mine.waivers[0]!.waiver_id}`);
      assert.equal(theirs.status, 404);
      const list = dataOf(await other.client.call<Reply<{ waivers: WaiverView[] }>>('GET', '/waivers'));
      assert.deepEqual(list.waivers, []);
    });
  });
