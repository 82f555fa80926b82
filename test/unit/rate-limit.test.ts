/**
 * Rate limits across processes (issue 13 item 13, OWASP API4; spec §8): several limiters, as several
 * processes would, share one DATA_DIR and admit at most a key's limit per window in total. Two Store
 * instances on one directory stand for two processes' environments; the clock is injected.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyRecord } from '../../src/model/records.js';
import type { RateLeases } from '../../src/store/rate-limits/repository.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { RateLimiter, type RateDecision } from '../../src/server/pipeline/rate-limit.js';
import { isPromise } from '../../src/store/awaitable.js';

/** 2026-11-22 10:00:05 UTC, in unix seconds: 5 s into a minute and an hour. */
const T0 = Date.UTC(2026, 10, 22, 10, 0, 5) / 1000;

let n = 0;
const keyWith = (perMinute: number, perHour: number): KeyRecord =>
  ({ key_id: `key${++n}`, per_minute: perMinute, per_hour: perHour }) as unknown as KeyRecord;

/** One hit, answered synchronously: the LMDB leases are local reads and writes, so the limiter never waits. */
function hitNow(limiter: RateLimiter, key: KeyRecord, nowS: number): RateDecision {
  const decision = limiter.hit(key, nowS);
  assert.ok(!isPromise(decision), 'on LMDB a hit is decided synchronously');
  return decision;
}

/** `count` hits of `key` at `nowS`, round-robin over `limiters`. */
function hammer(limiters: RateLimiter[], key: KeyRecord, nowS: number, count: number): RateDecision[] {
  return Array.from({ length: count }, (_, i) => hitNow(limiters[i % limiters.length]!, key, nowS));
}
const admitted = (decisions: RateDecision[]): number => decisions.filter((d) => d.allowed).length;

describe('rate limits shared by several processes on one DATA_DIR', () => {
  let dir: string;
  let stores: Store[];
  /** Four limiters: two on each of two environments opened on the same directory. */
  let limiters: () => RateLimiter[];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-rate-'));
    stores = [openStore(dir), openStore(dir)];
    limiters = () => [stores[0]!, stores[1]!, stores[0]!, stores[1]!].map((s) => new RateLimiter(s.rateLimits));
  });
  after(async () => {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('admits exactly the minute limit in total, refuses the rest until the minute rolls, then again exactly the limit', async () => {
    const key = keyWith(60, 10_000);
    const ls = limiters();
    const first = hammer(ls, key, T0, 200);
    assert.equal(admitted(first), 60);
    for (const d of first.filter((x) => !x.allowed)) {
      assert.equal(d.window, 'minute');
      assert.equal(d.retryAfter, 55);
      assert.deepEqual(d.state, { limit: 60, remaining: 0, reset: T0 - 5 + 60 });
    }
    assert.equal(
      await stores[1]!.rateLimits.leased(key.key_id, 'minute', Math.floor(T0 / 60)),
      60,
      'the other environment sees the same leases',
    );
    assert.equal(admitted(hammer(ls, key, T0 + 30, 50)), 0, 'still refused later in the minute');
    assert.equal(admitted(hammer(ls, key, T0 + 55, 200)), 60, 'the next minute starts afresh');
  });

  it('admits exactly the hour limit in total across minutes and refuses with the hour window until it rolls', () => {
    const key = keyWith(1_000, 150);
    const ls = limiters();
    const perMinute = [0, 1, 2].map((m) => hammer(ls, key, T0 + 60 * m, 100));
    assert.deepEqual(perMinute.map(admitted), [100, 50, 0]);
    const refused = perMinute[2]![0]!;
    assert.equal(refused.window, 'hour');
    assert.equal(refused.retryAfter, 3600 - 125);
    assert.equal(admitted(hammer(ls, key, T0 - 5 + 3600, 200)), 150, 'the next hour starts afresh');
  });

  it('strands no budget between the two windows: with any two limits exactly the smaller is admitted, calls in random order and turns', async () => {
    for (const [perMinute, perHour] of [
      [60, 60],
      [10, 10],
      [100, 30],
      [30, 100],
      [61, 59],
    ] as const) {
      for (let seed = 1; seed <= 6; seed++) {
        let state = seed;
        const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        const key = keyWith(perMinute, perHour);
        const ls = limiters().slice(0, 3 + (seed % 2));
        let total = 0;
        for (let i = 0; i < 10 * perMinute; i++) {
          // Calls spread over event-loop turns, as in a server: a limiter reads the others' leases once a turn.
          if (random() < 0.1) await new Promise((r) => setTimeout(r, 0));
          if (hitNow(ls[Math.floor(random() * ls.length)]!, key, T0).allowed) total++;
        }
        assert.equal(
          total,
          Math.min(perMinute, perHour),
          `${perMinute}/min, ${perHour}/h, ${ls.length} limiters, seed ${seed}`,
        );
      }
    }
  });

  it('a refusal by the minute does not use up the hour, nor one by the hour the minute', async () => {
    const key = keyWith(5, 100);
    const ls = limiters();
    const perMinute = Array.from({ length: 21 }, (_, m) => admitted(hammer(ls, key, T0 + 60 * m, 25)));
    assert.deepEqual(
      perMinute,
      [...Array<number>(20).fill(5), 0],
      '20 minutes of 5 reach the hour limit of 100 exactly',
    );
    const other = keyWith(60, 10);
    const minuteLeased = () => stores[0]!.rateLimits.leased(other.key_id, 'minute', Math.floor(T0 / 60));
    assert.equal(admitted(hammer(ls, other, T0, 10)), 10);
    const leased = await minuteLeased();
    assert.equal(admitted(hammer(ls, other, T0, 40)), 0);
    assert.equal(await minuteLeased(), leased, 'refusals by the hour lease nothing of the minute');
  });

  it('Remaining is exact with one limiter; with several never negative and never above the true remainder as of the last event-loop turn', async () => {
    const alone = keyWith(20, 1_000);
    const one = new RateLimiter(stores[0]!.rateLimits);
    hammer([one], alone, T0, 20).forEach((d, i) => assert.equal(d.state.remaining, 19 - i));
    const shared = keyWith(60, 1_000);
    const ls = limiters();
    let total = 0;
    for (let i = 0; i < 100; i++) {
      // A new event-loop turn, as between a server's request batches: reads see what other processes leased until then.
      await new Promise((r) => setTimeout(r, 0));
      const d = hitNow(ls[i % ls.length]!, shared, T0);
      if (d.allowed) total++;
      assert.ok(
        d.state.remaining >= 0 && d.state.remaining <= 60 - total,
        `call ${i + 1}: remaining ${d.state.remaining}, truly ${60 - total}`,
      );
    }
    assert.equal(total, 60);
  });

  it('a lowered limit applies to what was admitted: below it no more calls, above it exactly the difference; raised, the rest', () => {
    const ls = limiters();
    const key = keyWith(100, 1_000);
    assert.equal(admitted(hammer(ls, key, T0, 20)), 20);
    assert.equal(
      admitted(hammer(ls, { ...key, per_minute: 10 }, T0 + 1, 40)),
      0,
      'the slices leased under the old limit are given back, not used',
    );
    assert.equal(admitted(hammer(ls, { ...key, per_minute: 30 }, T0 + 2, 40)), 10);
    assert.equal(admitted(hammer(ls, { ...key, per_minute: 50 }, T0 + 3, 100)), 20);
    const hourOnly = keyWith(1_000, 1_000);
    assert.equal(admitted(hammer(ls, hourOnly, T0, 4)), 4);
    assert.equal(
      admitted(hammer(ls, { ...hourOnly, per_hour: 100 }, T0 + 1, 200)),
      96,
      'the hour too (its slices of 125 would have used it up)',
    );
  });

  it('nearLimit counts the keys that used 80% of a window, by what all processes leased', async () => {
    const [a, b] = limiters();
    const busy = keyWith(10, 1_000);
    const quiet = keyWith(10, 1_000);
    const limits = (id: string) => ({ perMinute: 10, perHour: 1_000, id });
    hammer([a!], busy, T0, 7);
    hammer([b!], busy, T0, 1);
    hammer([b!], quiet, T0, 1);
    assert.equal(await a!.nearLimit(T0, limits), 1, '8 of 10 used, 7 of them here');
    assert.equal(await b!.nearLimit(T0, limits), 1, 'the other process sees the same key near its limit');
    assert.equal(await b!.nearLimit(T0 + 60, limits), 0, 'a new minute');
  });

  it('gives unused shares back at shutdown so other processes can use them', async () => {
    const key = keyWith(60, 1_000);
    const [a, b] = limiters();
    assert.equal(admitted(hammer([a!], key, T0, 1)), 1);
    await a!.release();
    assert.equal(admitted(hammer([b!], key, T0, 100)), 59);
  });

  it('leases rarely at high limits: about one lease per 1,000 calls of a 100,000/min key', () => {
    const takes = { n: 0 };
    const counting = (inner: RateLeases): RateLeases => ({
      take: (...args) => {
        takes.n++;
        return inner.take(...args);
      },
      leased: (...args) => inner.leased(...args),
      release: (...args) => inner.release(...args),
      close: () => inner.close(),
    });
    const ls = [stores[0]!, stores[1]!, stores[0]!].map((s) => new RateLimiter(counting(s.rateLimits)));
    const key = keyWith(100_000, 6_000_000);
    const started = process.hrtime.bigint();
    assert.equal(admitted(hammer(ls, key, T0, 60_000)), 60_000);
    const usPerHit = Number(process.hrtime.bigint() - started) / 60_000 / 1000;
    assert.ok(takes.n <= 130, `${takes.n} leases for 60,000 calls (minute and hour)`);
    // Informational: the hot path's cost on this machine.
    process.stdout.write(`# ${usPerHit.toFixed(2)} µs per hit, ${takes.n} leases for 60,000 hits\n`);
  });
});

describe('rate limits on a remote (asynchronous) store, as in cluster mode', () => {
  let dir: string;
  let store: Store;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-rate-remote-'));
    store = openStore(dir);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The LMDB leases answering a turn later, as a network store would (each call a promise). */
  const remote = (inner: RateLeases, counter: { takes: number }): RateLeases => ({
    take: (...args) => {
      counter.takes++;
      return new Promise((resolve) => setImmediate(() => resolve(inner.take(...args))));
    },
    leased: (...args) => new Promise((resolve) => setImmediate(() => resolve(inner.leased(...args)))),
    release: (...args) => new Promise((resolve) => setImmediate(() => resolve(inner.release(...args)))),
    close: () => inner.close(),
  });

  it('a burst of 61 concurrent calls over 3 nodes admits exactly 60, strands no budget on one node, and refuses by the minute', async () => {
    const counter = { takes: 0 };
    const key = keyWith(60, 1_000);
    const nodes = [0, 1, 2].map(() => new RateLimiter(remote(store.rateLimits, counter)));
    const decisions = await Promise.all(Array.from({ length: 61 }, async (_, i) => nodes[i % 3]!.hit(key, T0)));
    assert.equal(admitted(decisions), 60);
    for (const d of decisions.filter((x) => !x.allowed)) assert.equal(d.window, 'minute', 'the hour has budget left');
    const hourLeased = await store.rateLimits.leased(key.key_id, 'hour', Math.floor(T0 / 3600));
    assert.ok(hourLeased < 1_000, `the hour budget is not all leased by one burst (${hourLeased})`);
    // The next minute, every node admits again.
    const later = await Promise.all(nodes.map(async (n) => n.hit(key, T0 + 60)));
    assert.equal(admitted(later), 3);
    assert.ok(counter.takes < 61, `leases are shared by waiting calls (${counter.takes} takes)`);
  });
});
