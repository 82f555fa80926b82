/**
 * Tenant isolation on the evaluation pool (issue 31): one organization's flood no longer holds another's
 * evaluation behind it. On the real piscina pool with one worker: the waiting tasks of two organizations
 * start in turn, and an organization beyond its share of the capacity is refused while another is
 * admitted. Over signed HTTP on a real server: while organization A floods inline evaluations, B's
 * inline requests are all answered 200 and each waits for at most the task running when it came (an
 * order of events, not a duration), and A's surplus is refused 503 with Retry-After.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EvaluationPool } from '../../src/actors/pool.js';
import type { InlineTaskResult } from '../../src/actors/worker-protocol.js';
import { DEFAULT_GOVERNANCE } from '../../src/actors/worker-protocol.js';
import type { Reply } from '../../src/client/responses.js';
import type { GovernanceClient } from '../../src/client/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, largeBlueprint, m } from '../helpers/blueprints.js';

/** A heavy blueprint of ~1.5 MB (210 modules, long texts): one evaluation holds a worker for a while. */
function heavy(): Record<string, unknown> {
  const b = largeBlueprint();
  const note = 'lorem ipsum dolor sit amet '.repeat(270);
  const stuff = (flow: Record<string, unknown>[]) => {
    for (const mod of flow) {
      mod['mapper'] = { ...(mod['mapper'] as object), text: note };
      for (const r of (mod['routes'] as { flow: Record<string, unknown>[] }[] | undefined) ?? []) stuff(r.flow);
    }
  };
  stuff(b['flow'] as Record<string, unknown>[]);
  return b;
}
const SMALL = bp([m(1, 'json:ParseJSON', { mapper: { json: '{}' } })]);
const body = (blueprint: unknown) => new Uint8Array(Buffer.from(JSON.stringify({ blueprint })));
const startedAt = (r: InlineTaskResult | { ok: false }): number => {
  assert.ok(r.ok, 'the task succeeded');
  return r.stats.startedAtMs;
};

describe('the pool between organizations', () => {
  let pool: EvaluationPool;
  before(() => {
    pool = new EvaluationPool({
      threads: 1,
      maxQueue: 29,
      taskTimeoutMs: 30_000,
      maxOldGenerationMb: 256,
      maxYoungGenerationMb: 24,
    });
  });
  after(() => pool.close());

  it("starts the waiting tasks of two organizations in turn: B's first task right after the one running", async () => {
    const heavyBody = JSON.stringify(heavy());
    await pool.runInline('warm', { kind: 'inline', body: body(SMALL), governance: DEFAULT_GOVERNANCE });
    const run = (org: string) =>
      pool
        .runInline(org, {
          kind: 'inline',
          body: new Uint8Array(Buffer.from(`{"blueprint":${heavyBody}}`)),
          governance: DEFAULT_GOVERNANCE,
        })
        .then((r) => ({ org, at: startedAt(r) }));
    const a = Array.from({ length: 4 }, () => run('a'));
    const b = Array.from({ length: 2 }, () => run('b'));
    const order = (await Promise.all([...a, ...b])).sort((x, y) => x.at - y.at).map((s) => s.org);
    assert.deepEqual(order, ['a', 'b', 'a', 'b', 'a', 'a']);
  });

  it("refuses an organization beyond its share of the capacity while admitting another's", async () => {
    // Capacity 30 (queue 29 + 1 worker); an organization may hold half of it.
    assert.equal(pool.capacity, 30);
    assert.equal(pool.orgCapacity, 15);
    const tasks = Array.from({ length: 15 }, () =>
      pool.runInline('a', { kind: 'inline', body: body(SMALL), governance: DEFAULT_GOVERNANCE }),
    );
    assert.equal(pool.admission('a', 1), 'share_full');
    assert.equal(pool.admission('b', 1), 'ok');
    assert.equal(pool.admission('b', 16), 'pool_full', 'more than the pool holds');
    for (const r of await Promise.all(tasks)) assert.equal(r.ok, true);
    assert.equal(pool.admission('a', 1), 'ok', 'the share is free again once they finished');
  });
});

describe('tenant isolation over HTTP', () => {
  let t: TestServer;
  let b: GovernanceClient;
  before(async () => {
    // One worker and a small queue: capacity 20, an organization's share 10 (one batch of the largest size).
    t = await startTestServer({ env: { POOL_THREADS: '1', POOL_MAX_QUEUE: '19' } });
    b = (await t.addOrg('Organization B')).client;
  });
  after(() => t.close());

  it("answers every one of B's inline requests while A floods, each after at most the task running when it came; A's surplus gets 503", async () => {
    const heavyBody = `{"blueprint":${JSON.stringify(heavy())}}`;
    const small = `{"blueprint":${JSON.stringify(SMALL)}}`;
    // A distinct query per request: the same signed request twice within a second reads as a replay.
    let n = 0;
    const inline = (client: GovernanceClient, raw: string) =>
      client.call<Reply<unknown>>('POST', `/evaluate/inline?n=${++n}`, undefined, { rawBody: raw });
    await inline(b, small); // both organizations' first request is not part of the measure
    const events: string[] = [];
    const flood = Array.from({ length: 24 }, async () => {
      const r = await inline(t.client, heavyBody);
      if (r.status === 200) events.push('a-done');
      return r;
    });
    const bStatuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      events.push(`b-sent-${i}`);
      const r = await inline(b, small);
      bStatuses.push(r.status);
      events.push(`b-done-${i}`);
    }
    const aReplies = await Promise.all(flood);
    assert.deepEqual(bStatuses, [200, 200, 200, 200], 'B is served while A is over its share');
    const refused = aReplies.filter((r) => r.status === 503);
    assert.ok(refused.length >= 24 - 10, `A's requests beyond its share of 10 are refused (${refused.length})`);
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '2');
      assert.match(r.raw, /Evaluation capacity exhausted/);
      assert.match(r.raw, /organization's share/);
    }
    assert.ok(
      aReplies.filter((r) => r.status === 200).length >= 2,
      'A had evaluations running and waiting while B was served',
    );
    // Each B request waited for at most the A task running when it came (plus one finishing as it was sent).
    for (let i = 0; i < 4; i++) {
      const between = events.slice(events.indexOf(`b-sent-${i}`), events.indexOf(`b-done-${i}`));
      assert.ok(
        between.filter((e) => e === 'a-done').length <= 2,
        `B request ${i} waited behind: ${between.join(' ')}`,
      );
    }
  });
});

describe("an organization's share of a small pool", () => {
  it('always admits one batch of the largest size (spec §8: 10 scenarios) when the pool could hold it', async () => {
    const small = new EvaluationPool({
      threads: 1,
      maxQueue: 2,
      taskTimeoutMs: 30_000,
      maxOldGenerationMb: 128,
      maxYoungGenerationMb: 24,
      orgSharePercent: 10,
    });
    try {
      assert.equal(small.orgCapacity, small.capacity, 'capped by what the pool holds');
      assert.equal(small.admission('a', 3), 'ok');
      assert.equal(small.admission('a', 4), 'pool_full');
    } finally {
      await small.close();
    }
  });
});
