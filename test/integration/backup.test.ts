/**
 * `admin backup` (issue 19, "Data"): a hot copy taken by the real CLI while the server accepts
 * evaluations; a server started on the copy finds every evaluation acknowledged before the copy began.
 */
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import type { BackupReport } from '../../src/store/backup.js';
import { runAdmin } from '../helpers/admin.js';
import { bp, m } from '../helpers/blueprints.js';
import { startTestServer } from '../helpers/server.js';

/** Concurrent submitters: enough to keep the writer busy on two shared cores. */
const SUBMITTERS = 4;
/** Acknowledged evaluations before the backup starts, and after it ended, before the load stops. */
const WARM_UP = 150;
const AFTERWARDS = 30;

interface Ack {
  readonly id: string;
  /** When the 200 arrived (epoch ms): the evaluation was committed and flushed before it. */
  readonly at: number;
}

const until = async (cond: () => boolean): Promise<void> => {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
};

async function restoresUnderLoad(t: TestContext, compact: boolean): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-backup-src-'));
  const dest = join(mkdtempSync(join(tmpdir(), 'gov-backup-dst-')), 'copy');
  const first = await startTestServer({ dataDir });
  const scenarios = ['a', 'b', 'c'];
  for (const id of scenarios)
    await importScenario(
      first.server.store.scenarios,
      first.orgId,
      id,
      JSON.stringify(
        bp([m(1, 'http:ActionSendData', { mapper: { url: `https://example.com/${id}` } }), m(2, 'util:SetVariable2')]),
      ),
    );

  const acks: Ack[] = [];
  const refused: number[] = [];
  let running = true;
  let n = 0;
  const submitter = async () => {
    while (running) {
      const res = await first.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: scenarios,
        n: n++,
      });
      if (res.status === 200 && res.body.ok) acks.push({ id: res.body.data.evaluation_id, at: Date.now() });
      else {
        refused.push(res.status); // 503 when the pool's queue is full on a busy machine: back off
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const load = Promise.all(Array.from({ length: SUBMITTERS }, submitter));
  try {
    await until(() => acks.length >= WARM_UP);
    const run = await runAdmin(['backup', dest, '--json', ...(compact ? ['--compact'] : [])], { DATA_DIR: dataDir });
    const atExit = acks.length;
    await until(() => acks.length >= atExit + AFTERWARDS);
    running = false;
    await load;
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BackupReport;
    const started = Date.parse(report.started_at);
    const before = acks.filter((a) => a.at < started);
    const during = acks.filter((a) => a.at >= run.spawnedAt && a.at <= run.exitedAt);
    assert.ok(before.length >= WARM_UP, `${before.length} acknowledged before the backup began`);
    assert.ok(during.length > 0, 'evaluations were acknowledged while the CLI ran: the copy was taken under load');
    assert.deepEqual(
      refused.filter((status) => status !== 503),
      [],
      'every submission was acknowledged or refused for capacity',
    );
    assert.equal(report.compact, compact);
    assert.deepEqual(report.files, ['gov.mdb', 'secrets.json'], 'the store and the secrets its keys need');
    assert.equal(statSync(dest).mode & 0o777, 0o700, 'the copy is as private as DATA_DIR');
    for (const f of readdirSync(dest)) assert.equal(statSync(join(dest, f)).mode & 0o777, 0o600, f);
    const sourceBytes = statSync(join(dataDir, 'gov.mdb')).size;
    await first.close();

    const second = await startTestServer({ dataDir: dest });
    try {
      // The first server's key: its record and the pepper that hashes it came with the copy.
      const client = new GovernanceClient(second.baseUrl, {
        apiKey: first.creds.apiKey,
        signingSecret: first.creds.signingSecret,
      });
      const found = new Map<string, string>();
      for (const a of acks) {
        const res = await client.call<Reply<EvaluationStatus>>('GET', `/evaluations/${a.id}`);
        if (res.status === 200 && res.body.ok) found.set(a.id, res.body.data.status);
        else assert.equal(res.status, 404, `an evaluation is either in the copy or unknown: ${res.raw}`);
      }
      const missing = before.filter((a) => !found.has(a.id)).map((a) => a.id);
      assert.deepEqual(missing, [], 'every evaluation acknowledged before the backup began is in it');
      for (const a of before)
        assert.ok(['pending', 'processing', 'complete', 'error'].includes(found.get(a.id) ?? ''), a.id);
      const after = acks.filter((a) => a.at >= started);
      t.diagnostic(
        `compact=${compact}: acknowledged ${acks.length} (before the backup began ${before.length}, while the CLI ran ${during.length}, after it began ${after.length} of which ${after.filter((a) => found.has(a.id)).length} in the copy); ` +
          `${refused.length} refused for capacity; copy ${report.duration_ms} ms, ${report.bytes} bytes (gov.mdb of the source ${sourceBytes} bytes); CLI process ${run.exitedAt - run.spawnedAt} ms`,
      );
    } finally {
      await second.close();
    }
  } finally {
    running = false;
    await load;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(dest, '..'), { recursive: true, force: true });
  }
}

describe('admin backup', () => {
  it('restores a hot copy taken under load with every evaluation acknowledged before it began', (t) =>
    restoresUnderLoad(t, false));

  it('restores a compacted hot copy taken under load in the same way', (t) => restoresUnderLoad(t, true));

  it('refuses a destination that is not empty, and a file, and leaves them as they were', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-backup-src-'));
    const server = await startTestServer({ dataDir });
    await server.close();
    const dest = mkdtempSync(join(tmpdir(), 'gov-backup-dst-'));
    writeFileSync(join(dest, 'keep.txt'), 'mine');
    try {
      for (const target of [dest, join(dest, 'keep.txt')]) {
        const run = await runAdmin(['backup', target, '--json'], { DATA_DIR: dataDir });
        assert.equal(run.status, 1, run.stderr);
        assert.equal(run.stdout, '');
        assert.equal((JSON.parse(run.stderr) as { error: string }).error, 'destination_not_empty');
      }
      assert.deepEqual(readdirSync(dest), ['keep.txt']);
      const text = await runAdmin(['backup', dest], { DATA_DIR: dataDir });
      assert.equal(text.status, 1);
      assert.match(text.stderr, /^error: backup destination .* exists and is not an empty directory\n$/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dest, { recursive: true, force: true });
    }
  });

  it('backs up into an existing empty directory and makes it owner-only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-backup-src-'));
    const server = await startTestServer({ dataDir });
    await server.close();
    const parent = mkdtempSync(join(tmpdir(), 'gov-backup-dst-'));
    const dest = join(parent, 'empty');
    mkdirSync(dest, { mode: 0o755 });
    try {
      const run = await runAdmin(['backup', dest, '--json'], { DATA_DIR: dataDir });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(statSync(dest).mode & 0o777, 0o700);
      assert.deepEqual(readdirSync(dest).sort(), ['gov.mdb', 'secrets.json']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('refuses STORE=redis without connecting, pointing to Redis persistence, and a DATA_DIR without a store', async () => {
    const dest = join(mkdtempSync(join(tmpdir(), 'gov-backup-dst-')), 'copy');
    const empty = mkdtempSync(join(tmpdir(), 'gov-backup-empty-'));
    try {
      // Port 1 on loopback: nothing listens there, so a connection attempt would fail otherwise.
      const redis = await runAdmin(['backup', dest, '--json'], { STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:1' });
      assert.equal(redis.status, 3, redis.stderr);
      const error = JSON.parse(redis.stderr) as { error: string; detail: string };
      assert.equal(error.error, 'unsupported_backend');
      assert.match(error.detail, /RDB.*AOF.*docs\/operations\.md "Backup and restore"/);
      const viaOption = await runAdmin(['--store', 'redis', 'backup', dest], {});
      assert.equal(viaOption.status, 3, viaOption.stderr);

      const none = await runAdmin(['backup', dest, '--json'], { DATA_DIR: empty, STORE: 'lmdb' });
      assert.equal(none.status, 3, none.stderr);
      assert.equal((JSON.parse(none.stderr) as { error: string }).error, 'configuration');
      assert.deepEqual(readdirSync(empty), [], 'no store was created in the empty DATA_DIR');
      assert.deepEqual(readdirSync(join(dest, '..')), [], 'no destination was created');
    } finally {
      rmSync(join(dest, '..'), { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
