/**
 * Secrets in replay records (issue 31, item 3): a `POST /webhooks` or a stored-scenario `POST /evaluate`
 * sent with `Idempotency-Key` answers with a secret (the `whsec_` signing secret, the result token),
 * and its replay must return it again, byte for byte; but the stored record must not hold it in
 * clear. Checked byte-wise in an `admin backup` copy and the live LMDB file, and in Redis: every
 * value under the server's prefix and the AOF files. The webhook id, stored in clear, is the
 * control that the bytes searched are the store's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { importScenario } from '../../src/actors/scenarios.js';
import type { ClientResponse } from '../../src/client/client.js';
import type { Reply } from '../../src/client/responses.js';
import { runAdmin } from '../helpers/admin.js';
import { bp, m } from '../helpers/blueprints.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sharedRedisServer } from '../store/contract/redis-backend.js';

interface Secrets {
  /** The webhook's id (stored in clear in its record: the control). */
  readonly webhookId: string;
  /** The `whsec_...` secret and the result token the first responses carried. */
  readonly whsec: string;
  readonly resultToken: string;
}

const nowS = () => Math.floor(Date.now() / 1000);

/** Every file under `dir`, recursively, as one buffer per file. */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)];
  });
}

/** Asserts that `chunks` hold the webhook id but neither `whsec_` nor the result token. */
function assertNoSecrets(chunks: readonly Buffer[], s: Secrets, where: string): void {
  const has = (text: string) => chunks.some((c) => c.includes(Buffer.from(text)));
  assert.ok(has(s.webhookId), `${where}: the webhook record is there (the bytes searched are the store's)`);
  assert.ok(!has('whsec_'), `${where}: no whsec_ secret in clear`);
  assert.ok(!has(s.resultToken), `${where}: no result token in clear`);
}

/**
 * Registers a webhook and submits an evaluation, each with an Idempotency-Key, replays both, and
 * checks that each replay is the first answer byte for byte, secret included.
 */
async function createAndReplay(t: TestServer): Promise<Secrets> {
  const send = (method: string, path: string, body: unknown, key: string, at: number) =>
    t.client.call<Reply<Record<string, unknown>>>(method, path, body, { t: at, headers: { 'idempotency-key': key } });
  const twice = async (path: string, body: unknown): Promise<ClientResponse<Reply<Record<string, unknown>>>> => {
    const key = randomUUID();
    const first = await send('POST', path, body, key, nowS() - 1);
    assert.ok(first.status < 300, first.raw);
    const replay = await send('POST', path, body, key, nowS());
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.status, first.status);
    assert.equal(replay.raw, first.raw, `${path}: the replay is the first answer, byte for byte`);
    return first;
  };
  // `waiver.expiring` only: no evaluation event is sent to the (unreachable) target.
  const hook = await twice('/webhooks', { url: 'https://hooks.example.com/h', events: ['waiver.expiring'] });
  const evaluation = await twice('/evaluate', { scenario_ids: ['s1'] });
  const data = (r: ClientResponse<Reply<Record<string, unknown>>>) => (r.body.ok ? r.body.data : {});
  const secrets = {
    webhookId: String(data(hook)['webhook_id']),
    whsec: String(data(hook)['secret']),
    resultToken: String(data(evaluation)['result_token']),
  };
  assert.match(secrets.whsec, /^whsec_/);
  assert.ok(secrets.resultToken.length > 20, 'the stored-scenario answer carries its result token');
  return secrets;
}

const blueprint = JSON.stringify(bp([m(1, 'util:SetVariable2')]));

describe('replay records hold no secret in clear (LMDB)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-idem-secrets-'));
  const dest = join(mkdtempSync(join(tmpdir(), 'gov-idem-secrets-copy-')), 'copy');
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ dataDir });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', blueprint);
  });
  after(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(dest, '..'), { recursive: true, force: true });
  });

  it('replays the secrets, and neither an admin backup copy nor the live store holds them', async () => {
    const secrets = await createAndReplay(t);
    const run = await runAdmin(['backup', dest, '--json'], { DATA_DIR: dataDir });
    assert.equal(run.status, 0, run.stderr);
    assertNoSecrets([readFileSync(join(dest, 'gov.mdb'))], secrets, 'the backup copy');
    assertNoSecrets([readFileSync(join(dataDir, 'gov.mdb'))], secrets, 'the live store');
  });
});

describe('replay records hold no secret in clear (Redis)', () => {
  let t: TestServer;
  let prefix: string;
  before(async () => {
    const env = await redisClusterEnv();
    prefix = env['REDIS_PREFIX']!;
    t = await startTestServer({ env });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', blueprint);
  });
  after(() => t.close());

  it('replays the secrets, and neither a value under the prefix nor the AOF holds them', async () => {
    const secrets = await createAndReplay(t);
    const server = await sharedRedisServer();
    const redis = new Redis(server.url);
    const values: Buffer[] = [];
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const type = await redis.type(key);
          if (type === 'string') values.push((await redis.getBuffer(key)) ?? Buffer.alloc(0));
          else if (type === 'hash') values.push(...Object.values(await redis.hgetallBuffer(key)));
          else if (type === 'list') values.push(...(await redis.lrangeBuffer(key, 0, -1)));
          else if (type === 'set') values.push(...(await redis.smembersBuffer(key)));
          else if (type === 'zset') values.push(...(await redis.zrangeBuffer(key, 0, -1)));
          else if (type === 'stream') values.push(Buffer.from(JSON.stringify(await redis.xrange(key, '-', '+'))));
          values.push(Buffer.from(key));
        }
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    assertNoSecrets(values, secrets, 'the values under the prefix');
    assertNoSecrets(filesUnder(server.dir), secrets, 'the AOF');
  });
});
