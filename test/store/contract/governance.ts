/**
 * @module test/store/contract/governance: the contract of GovernanceRepository (issue 17): settings
 * versions with compare-and-set, custom rules whose codes are never reused and whose revisions pin
 * evaluations, waivers (listing, scenario index, revocation, active limit, due indexes claimed
 * exactly once), and WebhooksRepository.enqueue for events of no evaluation.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../../src/store/store.js';
import type {
  DeliveryRecord,
  GovernanceSettingsBody,
  WaiverAuditEntry,
  WaiverRecord,
  WebhookRecord,
} from '../../../src/model/records.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import { byCodePoint, deliveryRecord, iso, ORG, ORG_LONG, ORG_PREFIXED, T0, webhookRecord } from './fixtures.js';

const DAY = 86_400_000;
const NOTICE = 7 * DAY;

/** Settings body number `n` (each one different). */
const body = (n: number): GovernanceSettingsBody => ({
  disabled_policies: [`SEC-${n}`],
  severity_overrides: { 'OPS-1': 'low' },
  parameters: { max_modules: n, allowed_hosts: [] },
});

/** A waiver of `scenarioId` created `createdMs` and expiring `expiresMs` after T0. */
function waiver(id: string, orgId: string, scenarioId: string, createdMs: number, expiresMs: number): WaiverRecord {
  return {
    waiver_id: id,
    org_id: orgId,
    scenario_id: scenarioId,
    policy: 'SEC-1',
    fingerprint: null,
    module_id: '3',
    reason: 'accepted for the migration',
    approver: 'ciso',
    expires_at: iso(expiresMs),
    created_at: iso(createdMs),
    created_by: 'key:k_1',
    status: 'active',
    revoked_at: null,
    audit: [{ at: iso(createdMs), actor: 'key:k_1', action: 'created', detail: null }],
  };
}

const entry = (action: WaiverAuditEntry['action'], ms: number, detail: string | null = null): WaiverAuditEntry => ({
  at: iso(ms),
  actor: 'system',
  action,
  detail,
});

/** Creates `records` one after the other (creation order = array order). */
async function createAll(store: Store, records: readonly WaiverRecord[], max = 100): Promise<void> {
  for (const r of records) assert.equal(await store.governance.createWaiver(r, NOTICE, max, T0), true);
}

const ids = (records: readonly { waiver_id: string }[]): string[] => records.map((r) => r.waiver_id);
const codes = (records: readonly { code: string }[]): string[] => records.map((r) => r.code);

/** Registers the governance suite for `backend`. */
export function governanceContract(backend: BackendUnderTest): void {
  describe(`governance contract (${backend.name})`, () => {
    it('stores settings versions with compare-and-set, keeps every version, and survives a reopen', () =>
      withBackend(backend, async (opened) => {
        const g = opened.store.governance;
        assert.equal(await g.getSettings(ORG), undefined);
        assert.equal(await g.settingsAt(ORG, 0), undefined);
        const v1 = await g.putSettings(ORG, 0, body(1), iso(1), 'key:k_1');
        assert.deepEqual(v1, {
          ok: true,
          record: { org_id: ORG, version: 1, settings: body(1), updated_at: iso(1), updated_by: 'key:k_1' },
        });
        assert.deepEqual(await g.putSettings(ORG, 0, body(9), iso(2), 'key:k_2'), { ok: false, currentVersion: 1 });
        const v2 = await g.putSettings(ORG, null, body(2), iso(3), 'user:u_1');
        assert.ok(v2.ok && v2.record.version === 2);
        assert.equal(await g.getSettings(ORG_PREFIXED), undefined, "another organization's settings");
        assert.equal(await g.getSettings(ORG_LONG), undefined);
        assert.deepEqual(await g.putSettings(ORG_LONG, 5, body(1), iso(4), 'key:k_1'), {
          ok: false,
          currentVersion: 0,
        });

        const store = await opened.reopen();
        assert.deepEqual(await store.governance.getSettings(ORG), v2.record);
        assert.deepEqual(await store.governance.settingsAt(ORG, 1), v1.ok ? v1.record : undefined);
        assert.equal(await store.governance.settingsAt(ORG, 3), undefined);
      }));

    it('reads the counters an evaluation pins (settings version, rules revision, waivers created) in one lookup', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        assert.deepEqual(await g.counters(ORG), { settingsVersion: 0, rulesRevision: 0, waiversCreated: 0 });
        await g.putSettings(ORG, null, body(1), iso(), 'system');
        await g.putSettings(ORG, null, body(2), iso(), 'system');
        const rule = await g.createRule(ORG, { title: 'r' }, iso(), 'system', 10);
        assert.ok(rule.ok);
        await g.deleteRule(ORG, rule.record.code, iso(), 'system');
        await createAll(store, [waiver('w_1', ORG, 's1', 0, DAY)]);
        assert.deepEqual(await g.counters(ORG), { settingsVersion: 2, rulesRevision: 2, waiversCreated: 1 });
        assert.deepEqual(await g.counters(ORG_PREFIXED), { settingsVersion: 0, rulesRevision: 0, waiversCreated: 0 });
      }));

    it('lets exactly one of 10 concurrent puts expecting the same version win, and numbers unconditional ones apart', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        await g.putSettings(ORG, null, body(1), iso(), 'system');
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) => g.putSettings(ORG, 1, body(10 + i), iso(i), 'system')),
        );
        assert.equal(outcomes.filter((o) => o.ok).length, 1);
        for (const o of outcomes) if (!o.ok) assert.equal(o.currentVersion, 2);
        const won = outcomes.find((o) => o.ok);
        assert.deepEqual(await g.getSettings(ORG), won?.ok ? won.record : undefined);

        const free = await Promise.all(
          Array.from({ length: 10 }, (_, i) => g.putSettings(ORG, null, body(20 + i), iso(i), 'system')),
        );
        const versions = free.map((o) => (o.ok ? o.record.version : -1)).sort((a, b) => a - b);
        assert.deepEqual(versions, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        for (const o of free) if (o.ok) assert.deepEqual(await g.settingsAt(ORG, o.record.version), o.record);
        assert.equal((await g.getSettings(ORG))?.version, 12);
      }));

    it('numbers rules ORG-<n> without reusing a code, bumps the revision per create and delete, and answers rulesAt', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        assert.equal(await g.rulesRevision(ORG), 0);
        const made = [];
        for (let i = 1; i <= 3; i++) {
          const r = await g.createRule(ORG, { title: `rule ${i}`, when: { all: [] } }, iso(i), 'key:k_1', 10);
          assert.ok(r.ok);
          made.push(r.record);
        }
        assert.deepEqual(codes(made), ['ORG-1', 'ORG-2', 'ORG-3']);
        assert.deepEqual(
          made.map((r) => r.created_revision),
          [1, 2, 3],
        );
        assert.deepEqual(made[0], {
          org_id: ORG,
          code: 'ORG-1',
          rule: { title: 'rule 1', when: { all: [] } },
          created_at: iso(1),
          created_by: 'key:k_1',
          created_revision: 1,
          deleted_revision: null,
          deleted_at: null,
        });
        const deleted = await g.deleteRule(ORG, 'ORG-2', iso(10), 'key:k_1');
        assert.deepEqual(deleted, { ...made[1], deleted_revision: 4, deleted_at: iso(10) });
        assert.equal(await g.deleteRule(ORG, 'ORG-2', iso(11), 'key:k_1'), undefined, 'already deleted');
        assert.equal(await g.deleteRule(ORG, 'ORG-9', iso(11), 'key:k_1'), undefined, 'unknown');
        assert.equal(await g.deleteRule(ORG_PREFIXED, 'ORG-1', iso(11), 'key:k_1'), undefined);
        assert.equal(await g.rulesRevision(ORG), 4);
        const fourth = await g.createRule(ORG, { title: 'rule 4' }, iso(12), 'key:k_1', 10);
        assert.ok(fourth.ok);
        assert.equal(fourth.record.code, 'ORG-4', 'ORG-2 is never reused');
        assert.equal(fourth.record.created_revision, 5);
        assert.deepEqual(await g.getRule(ORG, 'ORG-2'), deleted, 'a deleted rule is kept');
        for (const bad of ['ORG-02', 'ORG-0', 'org-1', 'ORG-1 ', 'SEC-1'])
          assert.equal(await g.getRule(ORG, bad), undefined, bad);
        assert.deepEqual(codes(await g.listRules(ORG)), ['ORG-1', 'ORG-3', 'ORG-4']);
        const at = async (rev: number) => codes(await g.rulesAt(ORG, rev));
        assert.deepEqual(await at(0), []);
        assert.deepEqual(await at(1), ['ORG-1']);
        assert.deepEqual(await at(3), ['ORG-1', 'ORG-2', 'ORG-3']);
        assert.deepEqual(await at(4), ['ORG-1', 'ORG-3']);
        assert.deepEqual(await at(5), ['ORG-1', 'ORG-3', 'ORG-4']);
        assert.equal(await g.rulesRevision(ORG_PREFIXED), 0);
        assert.deepEqual(await g.listRules(ORG_PREFIXED), []);
      }));

    it('admits exactly maxActive of 20 concurrent rule creations, each with its own code and revision', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        await g.createRule(ORG_LONG, { title: 'other' }, iso(), 'system', 1);
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) => g.createRule(ORG, { title: `r${i}` }, iso(i), 'system', 12)),
        );
        const won = outcomes.flatMap((o) => (o.ok ? [o.record] : []));
        assert.equal(won.length, 12);
        for (const o of outcomes) if (!o.ok) assert.equal(o.reason, 'limit');
        assert.deepEqual(
          won.map((r) => r.created_revision).sort((a, b) => a - b),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        );
        const listed = codes(await g.listRules(ORG));
        assert.deepEqual(
          listed,
          Array.from({ length: 12 }, (_, i) => `ORG-${i + 1}`),
          'by code number (ORG-10 after ORG-9)',
        );
        assert.deepEqual(await g.createRule(ORG, { title: 'late' }, iso(), 'system', 12), {
          ok: false,
          reason: 'limit',
        });
        await g.deleteRule(ORG, 'ORG-5', iso(), 'system');
        const after = await g.createRule(ORG, { title: 'after a delete' }, iso(), 'system', 12);
        assert.ok(after.ok);
        assert.equal(after.record.code, 'ORG-13');
        assert.equal(await g.rulesRevision(ORG), 14);
        assert.deepEqual(codes(await g.listRules(ORG_LONG)), ['ORG-1']);
      }));

    it('lists waivers newest first by creation (not by id) with an after cursor, per organization and per scenario', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        const scenarios = ['a', 'ab', 'a', 'L'.repeat(70), 'a', 'ab'];
        const wids = ['wvr_e', 'wvr_a', `wvr_${'l'.repeat(70)}`, 'wvr_é中😀', 'wvr_b', 'wvr_0'];
        const records = wids.map((id, i) => waiver(id, ORG, scenarios[i]!, i, 30 * DAY));
        await createAll(store, records);
        await createAll(store, [
          waiver('wvr_z', ORG_PREFIXED, 'a', 0, 30 * DAY),
          waiver('wvr_e', ORG_LONG, 'a', 0, DAY),
        ]);
        assert.deepEqual(await g.getWaiver(ORG, 'wvr_a'), records[1]);
        assert.equal(await g.getWaiver(ORG_PREFIXED, 'wvr_a'), undefined);
        assert.equal((await g.getWaiver(ORG_LONG, 'wvr_e'))?.expires_at, iso(DAY));
        const newest = [...wids].reverse();
        assert.deepEqual(ids(await g.listWaivers(ORG, { limit: 100 })), newest);
        const pages: string[][] = [];
        let after: string | undefined;
        for (;;) {
          const page = ids(await g.listWaivers(ORG, after === undefined ? { limit: 4 } : { limit: 4, after }));
          if (page.length === 0) break;
          pages.push(page);
          after = page.at(-1);
        }
        assert.deepEqual(pages, [newest.slice(0, 4), newest.slice(4)]);
        assert.deepEqual(ids(await g.listWaivers(ORG, { limit: 2, after: 'wvr_b' })), [
          'wvr_é中😀',
          `wvr_${'l'.repeat(70)}`,
        ]);
        assert.deepEqual(ids(await g.listWaivers(ORG, { scenarioId: 'a', limit: 10 })), [
          'wvr_b',
          `wvr_${'l'.repeat(70)}`,
          'wvr_e',
        ]);
        assert.deepEqual(ids(await g.listWaivers(ORG, { scenarioId: 'a', limit: 1, after: 'wvr_b' })), [
          `wvr_${'l'.repeat(70)}`,
        ]);
        assert.deepEqual(ids(await g.listWaivers(ORG, { scenarioId: 'ab', limit: 10 })), ['wvr_0', 'wvr_a']);
        assert.deepEqual(ids(await g.listWaivers(ORG, { scenarioId: 'L'.repeat(70), limit: 10 })), ['wvr_é中😀']);
        assert.deepEqual(await g.listWaivers(ORG, { scenarioId: 'b', limit: 10 }), []);
        assert.deepEqual(await g.listWaivers(ORG, { limit: 10, after: 'wvr_unknown' }), []);
        assert.deepEqual(ids(await g.listWaivers(ORG_PREFIXED, { limit: 10 })), ['wvr_z']);
        assert.deepEqual(ids(await g.listWaivers(ORG_LONG, { limit: 10 })), ['wvr_e']);
      }));

    it('revokes a waiver once (audit entry, out of the scenario and due indexes) and keeps expired ones for the scenario', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        const [w1, w2, w3] = [
          waiver('wvr_1', ORG, 'a', 0, 30 * DAY),
          waiver('wvr_2', ORG, 'a', 1, DAY),
          waiver('wvr_3', ORG, 'ab', 2, 30 * DAY),
        ] as const;
        await createAll(store, [w1, w2, w3]);
        assert.deepEqual(ids(await g.scenarioWaivers(ORG, 'a')).sort(byCodePoint), ['wvr_1', 'wvr_2']);
        const revoke = entry('revoked', 100, 'fixed upstream');
        const revoked = await g.revokeWaiver(ORG, 'wvr_1', revoke);
        assert.deepEqual(revoked, { ...w1, status: 'revoked', revoked_at: iso(100), audit: [...w1.audit, revoke] });
        assert.deepEqual(await g.getWaiver(ORG, 'wvr_1'), revoked);
        assert.deepEqual(
          await g.revokeWaiver(ORG, 'wvr_1', entry('revoked', 200)),
          revoked,
          'already revoked: unchanged',
        );
        assert.equal(await g.revokeWaiver(ORG, 'wvr_9', revoke), undefined);
        assert.equal(await g.revokeWaiver(ORG_PREFIXED, 'wvr_2', revoke), undefined);
        assert.deepEqual(ids(await g.scenarioWaivers(ORG, 'a')), ['wvr_2'], 'expired but unrevoked stays');
        assert.deepEqual(
          ids(await g.listWaivers(ORG, { scenarioId: 'a', limit: 10 })),
          ['wvr_2', 'wvr_1'],
          'all states',
        );
        for (const kind of ['notice', 'expiry'] as const) {
          const due = await g.dueWaivers(kind, T0 + 365 * DAY, 100);
          assert.deepEqual(due.map((d) => d.waiverId).sort(), ['wvr_2', 'wvr_3'], `${kind}: the revoked one left`);
        }
        assert.equal(await g.claimDue('expiry', ORG, 'wvr_1', entry('expired', 300)), undefined, 'revoked: no claim');
        assert.deepEqual(await g.getWaiver(ORG, 'wvr_1'), revoked);
      }));

    it('counts only unrevoked, unexpired waivers against maxActive, also under 10 concurrent creations', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        const now = T0 + 10 * DAY;
        const at = (id: string, expiresMs: number) => waiver(id, ORG, 'a', 0, expiresMs);
        assert.equal(await g.createWaiver(at('wvr_old', 5 * DAY), NOTICE, 3, T0), true);
        assert.equal(await g.createWaiver(at('wvr_edge', 10 * DAY), NOTICE, 3, T0), true);
        assert.equal(await g.createWaiver(at('wvr_r', 40 * DAY), NOTICE, 3, T0), true);
        assert.equal(await g.createWaiver(at('wvr_x', 40 * DAY), NOTICE, 3, T0), false, '3 active at T0');
        await g.revokeWaiver(ORG, 'wvr_r', entry('revoked', 1));
        await createAll(store, [waiver('wvr_o', ORG_PREFIXED, 'a', 0, 40 * DAY)], 1);
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) => g.createWaiver(at(`wvr_c${i}`, 40 * DAY), NOTICE, 3, now)),
        );
        assert.equal(outcomes.filter(Boolean).length, 3, 'expired (at or before now) and revoked ones do not count');
        assert.equal((await g.listWaivers(ORG, { limit: 100 })).length, 6);
        assert.equal(await g.createWaiver(at('wvr_late', 40 * DAY), NOTICE, 3, now), false);
        assert.equal(await g.createWaiver(at('wvr_late', 40 * DAY), NOTICE, 3, T0 + 41 * DAY), true);
      }));

    it('lists due entries of every organization oldest first up to now and the limit, and hands each out exactly once', () =>
      withBackend(backend, async ({ store }) => {
        const g = store.governance;
        await createAll(store, [
          waiver('wvr_3', ORG, 'a', 0, 30 * DAY),
          waiver('wvr_1', ORG_LONG, 'a', 0, 10 * DAY),
          waiver('wvr_2', ORG_PREFIXED, 'a', 0, 20 * DAY),
          waiver('wvr_4', ORG, 'ab', 0, 40 * DAY),
        ]);
        const expiry = await g.dueWaivers('expiry', T0 + 30 * DAY, 10);
        assert.deepEqual(expiry, [
          { orgId: ORG_LONG, waiverId: 'wvr_1', dueAtMs: T0 + 10 * DAY },
          { orgId: ORG_PREFIXED, waiverId: 'wvr_2', dueAtMs: T0 + 20 * DAY },
          { orgId: ORG, waiverId: 'wvr_3', dueAtMs: T0 + 30 * DAY },
        ]);
        assert.deepEqual(await g.dueWaivers('expiry', T0 + 30 * DAY, 2), expiry.slice(0, 2));
        assert.deepEqual(await g.dueWaivers('expiry', T0 + 10 * DAY - 1, 10), []);
        const notice = await g.dueWaivers('notice', T0 + 23 * DAY, 10);
        assert.deepEqual(notice, [
          { orgId: ORG_LONG, waiverId: 'wvr_1', dueAtMs: T0 + 3 * DAY },
          { orgId: ORG_PREFIXED, waiverId: 'wvr_2', dueAtMs: T0 + 13 * DAY },
          { orgId: ORG, waiverId: 'wvr_3', dueAtMs: T0 + 23 * DAY },
        ]);

        const notified = entry('expiring_notified', 5);
        const claims = await Promise.all(
          Array.from({ length: 10 }, () => g.claimDue('notice', ORG_PREFIXED, 'wvr_2', notified)),
        );
        const won = claims.filter((c) => c !== undefined);
        assert.equal(won.length, 1, 'exactly one of 10 concurrent claims');
        assert.deepEqual(
          won[0]?.audit.map((a) => a.action),
          ['created', 'expiring_notified'],
        );
        assert.deepEqual(await g.getWaiver(ORG_PREFIXED, 'wvr_2'), won[0]);
        const left = await g.dueWaivers('notice', T0 + 23 * DAY, 10);
        assert.deepEqual(
          left.map((d) => d.waiverId),
          ['wvr_1', 'wvr_3'],
        );
        assert.equal(await g.claimDue('notice', ORG_PREFIXED, 'wvr_2', notified), undefined, 'claimed already');
        assert.equal(
          (await g.dueWaivers('expiry', T0 + 30 * DAY, 10)).some((d) => d.waiverId === 'wvr_2'),
          true,
          'the other index keeps its entry',
        );
        const expired = await g.claimDue('expiry', ORG_PREFIXED, 'wvr_2', entry('expired', 6));
        assert.deepEqual(
          expired?.audit.map((a) => a.action),
          ['created', 'expiring_notified', 'expired'],
        );
        assert.equal(expired?.status, 'active', 'expiry is computed from expires_at');
        assert.equal(await g.claimDue('expiry', ORG, 'wvr_unknown', entry('expired', 6)), undefined);
      }));

    it('enqueues deliveries of an event of no evaluation into the outbox, given the stored endpoints', () =>
      withBackend(backend, async ({ store }) => {
        for (const id of ['wh_2', 'wh_1']) assert.equal(await store.webhooks.create(webhookRecord(id, ORG), 10), true);
        await store.webhooks.create(webhookRecord('wh_other', ORG_PREFIXED), 10);
        const build = (waiverId: string, ms: number) => (endpoints: readonly WebhookRecord[]) =>
          endpoints.map((e, i): DeliveryRecord => ({
            ...deliveryRecord(e, waiverId, ms + i),
            event_type: 'waiver.expiring',
            payload: JSON.stringify({ type: 'waiver.expiring', data: { waiver_id: waiverId } }),
          }));
        let given: string[] = [];
        const receipt = await store.webhooks.enqueue(ORG, (endpoints) => {
          given = endpoints.map((e) => e.webhook_id);
          return build('wvr_1', 1_000)(endpoints);
        });
        assert.deepEqual(given, ['wh_1', 'wh_2'], "the organization's endpoints, by id");
        assert.deepEqual([...receipt.webhookIds].sort(), ['wh_1', 'wh_2']);
        const first = await store.webhooks.nextPending('wh_1');
        assert.ok(first);
        assert.equal(first.event_type, 'waiver.expiring');
        assert.equal(first.evaluation_id, 'wvr_1');
        assert.equal((await store.webhooks.nextPending('wh_2'))?.evaluation_id, 'wvr_1');
        assert.deepEqual(await store.webhooks.getDelivery('wh_1', first.delivery_id), first);
        assert.equal((await store.stats()).outbox, 2);
        assert.equal(await store.webhooks.nextPending('wh_other'), undefined);

        assert.deepEqual(
          await store.webhooks.enqueue(ORG_LONG, build('wvr_2', 2_000)),
          { webhookIds: [] },
          'no endpoints',
        );
        assert.deepEqual(await store.webhooks.enqueue(ORG, () => []), { webhookIds: [] });
        assert.equal((await store.stats()).outbox, 2);
        const refs = (await store.webhooks.endpointsWithPending()).map((r) => `${r.orgId}/${r.webhookId}`).sort();
        assert.deepEqual(refs, [`${ORG}/wh_1`, `${ORG}/wh_2`]);
      }));
  });
}
