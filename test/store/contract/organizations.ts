/** @module test/store/contract/organizations: the contract of OrganizationsRepository (organizations, API keys, watermarks). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendUnderTest } from './backend.js';
import type { KeyPatch } from '../../../src/store/organizations/repository.js';
import { withBackend } from './backend.js';
import { byCodePoint, iso, keyRecord, ORG, ORG_LONG, ORG_PREFIXED } from './fixtures.js';

/** A time of key use, epoch ms (2026-11-22T10:00:00Z). */
const T_USE = Date.UTC(2026, 10, 22, 10);

/** Registers the organizations suite for `backend`. */
export function organizationsContract(backend: BackendUnderTest): void {
  describe(`organizations contract (${backend.name})`, () => {
    it('is empty until the first organization, then gets and lists organizations by id', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        assert.equal(await orgs.isEmpty(), true);
        assert.deepEqual(await orgs.listOrgs(), []);
        const ids = [ORG_PREFIXED, ORG_LONG, ORG, 'org_é'];
        for (const id of ids) await orgs.createOrg({ org_id: id, name: `Org ${id}`, created_at: iso() });
        assert.equal(await orgs.isEmpty(), false);
        assert.deepEqual(await orgs.getOrg(ORG), { org_id: ORG, name: `Org ${ORG}`, created_at: iso() });
        assert.equal(await orgs.getOrg('org_2'), undefined);
        assert.deepEqual(
          (await orgs.listOrgs()).map((o) => o.org_id),
          [...ids].sort(byCodePoint),
        );
      }));

    it("finds a new key by id, by hash and in its own organization's list, newest first", () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        // Created out of order; ORG_PREFIXED's id extends ORG's, ORG_LONG's keys have 64+ units.
        const keys = [
          keyRecord('key_b', ORG, 2_000),
          keyRecord('key_a', ORG, 3_000),
          keyRecord('key_c', ORG, 1_000),
          keyRecord('key_x', ORG_PREFIXED, 5_000),
          keyRecord('key_l', ORG_LONG, 4_000),
        ];
        for (const key of keys) await orgs.createKey(key);
        for (const key of keys) {
          assert.deepEqual(await orgs.getKey(key.key_id), key);
          assert.equal(await orgs.keyIdByHash(key.hash), key.key_id);
        }
        assert.deepEqual(
          (await orgs.listKeys(ORG)).map((key) => key.key_id),
          ['key_a', 'key_b', 'key_c'],
        );
        assert.deepEqual(
          (await orgs.listKeys(ORG_PREFIXED)).map((key) => key.key_id),
          ['key_x'],
        );
        assert.deepEqual(await orgs.listKeys(ORG_LONG), [keys[4]]);
        assert.deepEqual(await orgs.listKeys('org_2'), []);
        assert.equal(await orgs.getKey('key_z'), undefined);
        assert.equal(await orgs.keyIdByHash('f'.repeat(64)), undefined);
      }));

    it('updates a key by read-modify-write and returns the new record; unknown keys give undefined', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        const key = keyRecord('key_1', ORG);
        await orgs.createKey(key);
        const updated = await orgs.updateKey('key_1', { revoked_at: iso(5_000), per_minute: 10 });
        const expected = { ...key, revoked_at: iso(5_000), per_minute: 10 };
        assert.deepEqual(updated, expected);
        assert.deepEqual(await orgs.getKey('key_1'), expected);
        assert.equal(await orgs.keyIdByHash(key.hash), 'key_1');
        assert.deepEqual(await orgs.listKeys(ORG), [expected]);
        assert.equal(await orgs.updateKey('key_unknown', { per_hour: 1 }), undefined);
        assert.equal(await orgs.getKey('key_unknown'), undefined);
      }));

    it('loses no update when different patches of one key run concurrently', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        await orgs.createKey(keyRecord('key_1', ORG));
        const patches: KeyPatch[] = [
          { revoked_at: iso(1) },
          { expires_at: iso(2) },
          { per_minute: 7 },
          { per_hour: 70 },
          { allow_ips: ['10.0.0.0/8'] },
          { permissions: ['governance:read'] },
        ];
        const results = await Promise.all(patches.map((p) => orgs.updateKey('key_1', p)));
        assert.ok(results.every((r) => r !== undefined));
        assert.deepEqual(await orgs.getKey('key_1'), { ...keyRecord('key_1', ORG), ...Object.assign({}, ...patches) });
      }));

    it('round-trips watermarks, idempotently', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        const entry = { key_id: 'key_1', org_id: ORG, day: '2026-11-22' };
        const other = { key_id: 'key_2', org_id: ORG_PREFIXED, day: '2026-11-23' };
        await orgs.recordWatermark('wm_1', entry);
        await orgs.recordWatermark('wm_1', entry);
        await orgs.recordWatermark('wm_2', other);
        assert.deepEqual(await orgs.findWatermark('wm_1'), entry);
        assert.deepEqual(await orgs.findWatermark('wm_2'), other);
        assert.equal(await orgs.findWatermark('wm_3'), undefined);
      }));

    it('records key use in one batch and keeps the latest time of each key', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        for (const id of ['key_1', 'key_2', 'key_3']) await orgs.createKey(keyRecord(id, ORG));
        assert.deepEqual(await orgs.keyLastUsed(['key_1', 'key_2', 'key_3']), new Map());
        await orgs.recordKeyUse([]);
        await orgs.recordKeyUse([
          { keyId: 'key_1', atMs: T_USE + 10 },
          { keyId: 'key_2', atMs: T_USE + 20 },
        ]);
        assert.deepEqual(
          await orgs.keyLastUsed(['key_1', 'key_2', 'key_3']),
          new Map([
            ['key_1', T_USE + 10],
            ['key_2', T_USE + 20],
          ]),
        );
        // Later for key_1, earlier for key_2 (a node whose flush is late), first for key_3.
        await orgs.recordKeyUse([
          { keyId: 'key_1', atMs: T_USE + 30 },
          { keyId: 'key_2', atMs: T_USE + 5 },
          { keyId: 'key_3', atMs: T_USE + 1 },
        ]);
        assert.deepEqual(
          await orgs.keyLastUsed(['key_3', 'key_1', 'key_2', 'key_unknown']),
          new Map([
            ['key_3', T_USE + 1],
            ['key_1', T_USE + 30],
            ['key_2', T_USE + 20],
          ]),
        );
        assert.deepEqual(await orgs.keyLastUsed([]), new Map());
      }));

    it('keeps the maximum of key use written by concurrent writers, whatever order they commit in', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        await orgs.createKey(keyRecord('key_1', ORG));
        await orgs.createKey(keyRecord('key_2', ORG));
        // 20 writers (nodes flushing at once), each with its own times; the greatest of each key wins.
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            orgs.recordKeyUse([
              { keyId: 'key_1', atMs: T_USE + ((i * 7) % 20) },
              { keyId: 'key_2', atMs: T_USE - i },
            ]),
          ),
        );
        assert.deepEqual(
          await orgs.keyLastUsed(['key_1', 'key_2']),
          new Map([
            ['key_1', T_USE + 19],
            ['key_2', T_USE],
          ]),
        );
        assert.deepEqual(await orgs.getKey('key_1'), keyRecord('key_1', ORG), 'the key record is not rewritten');
      }));

    it('ignores key use of unknown keys and still records the known ones of the batch', () =>
      withBackend(backend, async ({ store }) => {
        const orgs = store.organizations;
        await orgs.createKey(keyRecord('key_1', ORG));
        await orgs.recordKeyUse([
          { keyId: 'key_unknown', atMs: T_USE },
          { keyId: 'key_1', atMs: T_USE + 1 },
          { keyId: 'key:{odd}%', atMs: T_USE + 2 },
        ]);
        assert.deepEqual(
          await orgs.keyLastUsed(['key_unknown', 'key_1', 'key:{odd}%']),
          new Map([['key_1', T_USE + 1]]),
        );
      }));

    it('keeps organizations and keys across a reopen', () =>
      withBackend(backend, async (opened) => {
        await opened.store.organizations.createOrg({ org_id: ORG, name: 'Org', created_at: iso() });
        await opened.store.organizations.createKey(keyRecord('key_1', ORG));
        await opened.store.organizations.updateKey('key_1', { revoked_at: iso(9) });
        await opened.store.organizations.recordKeyUse([{ keyId: 'key_1', atMs: T_USE }]);
        const store = await opened.reopen();
        assert.deepEqual(await store.organizations.keyLastUsed(['key_1']), new Map([['key_1', T_USE]]));
        assert.equal(await store.organizations.isEmpty(), false);
        assert.equal(await store.organizations.keyIdByHash(keyRecord('key_1', ORG).hash), 'key_1');
        assert.equal((await store.organizations.getKey('key_1'))?.revoked_at, iso(9));
      }));
  });
}
