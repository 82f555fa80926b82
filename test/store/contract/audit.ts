/** @module test/store/contract/audit: the contract of AuditRepository: per-organization order, paging, concurrent appends, durability. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../../../src/store/audit/repository.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';
import { iso, ORG, ORG_LONG, ORG_PREFIXED } from './fixtures.js';

const entry = (orgId: string, n: number, at = iso()): AuditEntry => ({
  org_id: orgId,
  at,
  actor: n % 2 === 0 ? 'user:usr_1' : 'key:key_1',
  action: 'key.create',
  target: `key_${n}`,
  detail: n === 0 ? null : `entry ${n} é中😀`,
});

/** Registers the audit suite for `backend`. */
export function auditContract(backend: BackendUnderTest): void {
  describe(`audit contract (${backend.name})`, () => {
    it('lists an organization’s entries newest first with their sequence, paged by `before`, durably', () =>
      withBackend(backend, async (opened) => {
        for (let n = 0; n < 7; n++) assert.equal(await opened.store.audit.append(entry(ORG, n)), n + 1);
        assert.equal(await opened.store.audit.append(entry(ORG_PREFIXED, 100)), 1, 'sequences are per organization');
        const store = await opened.reopen();
        const all = await store.audit.list(ORG, 50);
        assert.deepEqual(
          all,
          Array.from({ length: 7 }, (_, i) => ({ ...entry(ORG, 6 - i), seq: 7 - i })),
        );
        const first = await store.audit.list(ORG, 3);
        assert.deepEqual(
          first.map((e) => e.seq),
          [7, 6, 5],
        );
        const second = await store.audit.list(ORG, 3, first.at(-1)!.seq);
        assert.deepEqual(
          second.map((e) => e.seq),
          [4, 3, 2],
        );
        assert.deepEqual(
          (await store.audit.list(ORG, 3, 2)).map((e) => e.seq),
          [1],
        );
        assert.deepEqual(await store.audit.list(ORG, 3, 1), []);
        assert.deepEqual(await store.audit.list(ORG, 0), []);
        assert.deepEqual(
          (await store.audit.list(ORG_PREFIXED, 10)).map((e) => e.target),
          ['key_100'],
        );
        assert.deepEqual(await store.audit.list('org_unknown', 10), []);
        assert.equal(await store.audit.append(entry(ORG, 7)), 8, 'the sequence survives a restart');
      }));

    it('keeps all of 50 concurrent appends in one millisecond, each with its own sequence', () =>
      withBackend(backend, async ({ store }) => {
        const seqs = await Promise.all(Array.from({ length: 50 }, (_, n) => store.audit.append(entry(ORG_LONG, n))));
        assert.deepEqual(
          [...seqs].sort((a, b) => a - b),
          Array.from({ length: 50 }, (_, i) => i + 1),
        );
        const listed = await store.audit.list(ORG_LONG, 100);
        assert.equal(listed.length, 50);
        assert.deepEqual(
          listed.map((e) => e.seq),
          Array.from({ length: 50 }, (_, i) => 50 - i),
        );
        // Each entry is listed under the sequence its append returned.
        for (const e of listed) assert.equal(e.target, `key_${seqs.indexOf(e.seq)}`);
      }));
  });
}
