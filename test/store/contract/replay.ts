/** @module test/store/contract/replay: the contract of ReplayRepository: each accepted signature recorded once (conditional write), swept by signing time. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AcceptedSignature } from '../../../src/store/replay/repository.js';
import type { BackendUnderTest } from './backend.js';
import { withBackend } from './backend.js';

/** A signing time, unix seconds (2026-11-22 10:00 UTC). */
const T = 1_795_341_600;
/** A 64-hex signature (HMAC-SHA256 size: its keys are long enough for lmdb-js's other key form). */
const sig = (n: number | string): string => createHash('sha256').update(String(n)).digest('hex');
const bySignature = (a: AcceptedSignature, b: AcceptedSignature) =>
  a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : a.t - b.t;

/** Registers the replay suite for `backend`. */
export function replayContract(backend: BackendUnderTest): void {
  describe(`replay contract (${backend.name})`, () => {
    it('records one signature for exactly one of 50 concurrent calls', () =>
      withBackend(backend, async ({ store }) => {
        const one = { signature: sig('one'), t: T };
        assert.equal(await store.replay.has(one.signature, one.t), false);
        const seen = await Promise.all(Array.from({ length: 50 }, () => store.replay.record([one])));
        assert.equal(seen.filter((s) => s.length === 0).length, 1);
        for (const s of seen) if (s.length > 0) assert.deepEqual(s, [one]);
        assert.equal(await store.replay.has(one.signature, one.t), true);
        assert.equal(
          await store.replay.has(one.signature, one.t + 1),
          false,
          'the same signature at another time is another entry',
        );
        assert.equal(await store.replay.has(sig('two'), T), false);
      }));

    it('returns exactly the already recorded signatures of a batch, including repeats inside the batch', () =>
      withBackend(backend, async ({ store }) => {
        const a = { signature: sig('a'), t: T };
        const b = { signature: sig('b'), t: T + 1 };
        const c = { signature: sig('c'), t: T + 2 };
        const short = { signature: 'ab12', t: T };
        assert.deepEqual(await store.replay.record([]), []);
        assert.deepEqual(await store.replay.record([a, short]), []);
        assert.deepEqual(
          (await store.replay.record([c, a, b, short, c])).sort(bySignature),
          [a, short, c].sort(bySignature),
        );
        for (const x of [a, b, c, short]) assert.equal(await store.replay.has(x.signature, x.t), true);
      }));

    it('records overlapping batches concurrently so that every signature is new to exactly one call', () =>
      withBackend(backend, async ({ store }) => {
        const pool = Array.from({ length: 12 }, (_, i) => ({ signature: sig(i), t: T + (i % 3) }));
        const batches = Array.from({ length: 20 }, (_, j) => pool.filter((_, i) => (i * 7 + j) % 3 !== 0));
        const seen = await Promise.all(batches.map((batch) => store.replay.record(batch)));
        for (const x of pool) {
          const offered = batches.filter((batch) => batch.includes(x)).length;
          const refused = seen.filter((s) => s.some((y) => y.signature === x.signature && y.t === x.t)).length;
          assert.equal(refused, offered - 1, `${x.signature} was new to exactly one call`);
        }
      }));

    it('sweeps exactly the signatures signed before the bound (t = bound stays)', () =>
      withBackend(backend, async (opened) => {
        const entries = [T - 100, T - 1, T, T + 1].flatMap((t) => [
          { signature: sig(t), t },
          { signature: `s${t}`, t },
        ]);
        assert.deepEqual(await opened.store.replay.record(entries), []);
        assert.equal(await opened.store.replay.sweep(T - 1_000), 0);
        assert.equal(await opened.store.replay.sweep(T), 4);
        for (const x of entries)
          assert.equal(await opened.store.replay.has(x.signature, x.t), x.t >= T, `${x.signature}@${x.t}`);
        assert.equal(await opened.store.replay.sweep(T), 0);
        const store = await opened.reopen();
        assert.equal(await store.replay.has(sig(T), T), true, 'recorded signatures survive a restart');
        assert.deepEqual(await store.replay.record([{ signature: sig(T + 1), t: T + 1 }]), [
          { signature: sig(T + 1), t: T + 1 },
        ]);
        assert.equal(await store.replay.sweep(T + 2), 4);
        assert.equal(await store.replay.has(sig(T + 1), T + 1), false);
      }));
  });
}
