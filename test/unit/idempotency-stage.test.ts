/** The idempotency stage without a socket (server/pipeline/idempotency): what is stored, released and replayed, on a real LMDB store. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest, ApiResponse, RequestContext } from '../../src/server/http/types.js';
import type { KeyRecord } from '../../src/model/records.js';
import type { Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open.js';
import { SealedBox } from '../../src/server/auth/sealed-box.js';
import { API_ERRORS } from '../../src/server/errors.js';
import {
  IDEMPOTENCY_RUNNING_MS,
  fingerprintOf,
  idempotency,
  type IdempotentTarget,
} from '../../src/server/pipeline/idempotency.js';

const T = 1_795_341_600_000;
const box = new SealedBox(randomBytes(32));

function request(key: string, body = '{"a":1}', extra: Record<string, string> = {}, query = ''): ApiRequest {
  const bytes = Buffer.from(body);
  return {
    method: 'POST',
    path: '/api/public/v1/evaluate',
    query,
    headers: { 'idempotency-key': key, 'x-service-signature': `t=${Math.random()}`, ...extra },
    body: bytes,
    remoteAddress: '127.0.0.1',
    requestId: 'r1',
    receivedAt: T,
    takeBody: () => new Uint8Array(bytes),
  };
}
const context = (): RequestContext => ({
  key: { key_id: 'k1' } as KeyRecord,
  watermark: 'wm_00000000',
  rate: null,
  params: {},
  template: '/evaluate',
  clientIp: null,
});
/** A handler that counts its runs and answers `answer` (or throws it). */
function counting(answer: () => ApiResponse | Promise<ApiResponse>): IdempotentTarget & { runs: number } {
  const target = {
    runs: 0,
    handle() {
      target.runs++;
      return answer();
    },
  };
  return target;
}

async function withStore(run: (store: Store) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gov-idem-'));
  const store = openStore(dir);
  try {
    await run(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

it('fingerprints method, path, query and body, never the signature header', () => {
  assert.equal(fingerprintOf(request('a')), fingerprintOf(request('a', '{"a":1}', { 'x-service-signature': 'other' })));
  assert.notEqual(fingerprintOf(request('a')), fingerprintOf(request('a', '{"a":2}')));
  assert.notEqual(fingerprintOf(request('a')), fingerprintOf(request('a', '{"a":1}', {}, 'x=1')));
});

it('stores the headers that describe the result, not the per-request ones, and replays with Idempotent-Replayed', () =>
  withStore(async (store) => {
    const stage = idempotency(store.idempotency, box, () => T);
    const answer: ApiResponse = {
      status: 201,
      body: '{"ok":true}',
      headers: [
        ['location', '/x'],
        ['retry-after', '3'],
        ['x-ratelimit-remaining', '5'],
        ['connection', 'close'],
      ],
    };
    const target = counting(() => answer);
    assert.equal(await stage(request('h'), context(), target), answer);
    const replay = await stage(request('h'), context(), target);
    assert.equal(target.runs, 1);
    assert.equal(replay.status, 201);
    assert.equal(replay.body.toString(), '{"ok":true}');
    assert.deepEqual(replay.headers, [
      ['location', '/x'],
      ['retry-after', '3'],
      ['idempotent-replayed', 'true'],
    ]);
  }));

it('releases the claim when the handler throws, rejects or answers a 5xx, so that a retry runs again', () =>
  withStore(async (store) => {
    const stage = idempotency(store.idempotency, box, () => T);
    const thrown = counting(() => {
      throw new Error('boom');
    });
    await assert.rejects(async () => stage(request('t'), context(), thrown), /boom/);
    await assert.rejects(async () => stage(request('t'), context(), thrown), /boom/, 'released: it ran again');
    assert.equal(thrown.runs, 2);
    const rejected = counting(() => Promise.reject(new Error('later')));
    await assert.rejects(async () => stage(request('t'), context(), rejected), /later/);
    const unavailable = counting(() => ({ status: 503, body: '{}' }));
    assert.equal((await stage(request('t'), context(), unavailable)).status, 503);
    const fine = counting(() => ({ status: 200, body: '{"n":1}' }));
    assert.equal((await stage(request('t'), context(), fine)).status, 200);
    assert.equal(fine.runs, 1, 'each failed attempt left the key free');
  }));

it('answers 409 while the first runs, takes a stale claim over after the running bound, and 422 for another body', () =>
  withStore(async (store) => {
    let now = T;
    const stage = idempotency(store.idempotency, box, () => now);
    let finish: (a: ApiResponse) => void = () => undefined;
    const slow = counting(() => new Promise<ApiResponse>((resolve) => (finish = resolve)));
    const first = stage(request('s'), context(), slow);
    await new Promise((r) => setTimeout(r, 20));
    const busy = await stage(request('s'), context(), slow);
    assert.equal(busy.status, 409);
    assert.equal((JSON.parse(busy.body.toString()) as { error: string }).error, API_ERRORS.idempotencyInProgress.error);
    assert.deepEqual(busy.headers, [['retry-after', '1']]);
    assert.equal((await stage(request('s', '{"b":2}'), context(), slow)).status, 422);
    now = T + IDEMPOTENCY_RUNNING_MS; // the first node "crashed": its claim has expired
    const again = counting(() => ({ status: 200, body: '{"second":true}' }));
    assert.equal((await stage(request('s'), context(), again)).status, 200);
    finish({ status: 200, body: '{"first":true}' });
    assert.equal((await first).status, 200, 'the late first answer is still sent');
    const replay = await stage(request('s'), context(), again);
    assert.equal(replay.body.toString(), '{"second":true}', 'the late first answer did not overwrite the takeover');
  }));

it('answers 400 to an invalid key value without touching the store; 255 printable characters are a key', () =>
  withStore(async (store) => {
    const stage = idempotency(store.idempotency, box, () => T);
    const target = counting(() => ({ status: 200, body: '{}' }));
    for (const bad of ['', 'x'.repeat(256), 'a\u0001b', 'é']) {
      const refused = stage(request(bad), context(), target);
      assert.ok(!(refused instanceof Promise), 'answered at once');
      assert.equal(refused.status, 400, JSON.stringify(bad));
    }
    assert.equal(target.runs, 0);
    assert.equal((await stage(request(' ~'.repeat(127) + 'x'), context(), target)).status, 200);
    assert.equal(target.runs, 1);
  }));

it('sends the answer when the store cannot record it, and reports the failure', () =>
  withStore(async (store) => {
    const failures: unknown[] = [];
    const broken = Object.create(store.idempotency) as typeof store.idempotency;
    broken.complete = () => Promise.reject(new Error('store down'));
    const stage = idempotency(
      broken,
      box,
      () => T,
      (e) => failures.push(e),
    );
    const answer = await stage(
      request('f'),
      context(),
      counting(() => ({ status: 200, body: '{}' })),
    );
    assert.equal(answer.status, 200);
    assert.equal(failures.length, 1);
  }));

it('stores the body sealed for its key id and key: the record holds no clear byte of it, and it opens nowhere else', () =>
  withStore(async (store) => {
    const stage = idempotency(store.idempotency, box, () => T);
    const secret = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5';
    const target = counting(() => ({ status: 201, body: JSON.stringify({ ok: true, data: { secret } }) }));
    await stage(request('sealed'), context(), target);
    const held = await store.idempotency.claim('k1', 'sealed', fingerprintOf(request('sealed')), T, T + 1);
    assert.equal(held.kind, 'done');
    const body = held.kind === 'done' ? held.response.body : Buffer.alloc(0);
    assert.ok(SealedBox.isSealed(body));
    assert.ok(!body.includes('whsec_'), 'no clear byte of the secret');
    assert.ok(!body.includes('"ok"'), 'no clear byte of the body');
    assert.equal(
      (await stage(request('sealed'), context(), target)).body.toString(),
      `{"ok":true,"data":{"secret":"${secret}"}}`,
    );
    assert.equal(box.open(body, 'idempotency\u0000k2\u0000sealed'), null, 'bound to its key id');
    assert.equal(box.open(body, 'idempotency\u0000k1\u0000other'), null, 'bound to its Idempotency-Key');
    const otherMaster = idempotency(store.idempotency, new SealedBox(randomBytes(32)), () => T);
    const unreadable = await otherMaster(request('sealed'), context(), target);
    assert.equal(unreadable.status, 500, 'sealed under another master key: not replayed, not run again');
    assert.equal(target.runs, 1);
  }));

it('replays a body stored in clear by a version before sealing as it is', () =>
  withStore(async (store) => {
    const claim = await store.idempotency.claim('k1', 'legacy', fingerprintOf(request('legacy')), T, T + 1000);
    assert.equal(claim.kind, 'claimed');
    const token = claim.kind === 'claimed' ? claim.token : '';
    const legacy = { status: 200, headers: [], body: Buffer.from('{"old":true}') };
    assert.ok(await store.idempotency.complete('k1', 'legacy', token, legacy, T, T + 60_000));
    const stage = idempotency(store.idempotency, box, () => T);
    const replay = await stage(
      request('legacy'),
      context(),
      counting(() => ({ status: 200, body: '{}' })),
    );
    assert.equal(replay.body.toString(), '{"old":true}');
  }));
