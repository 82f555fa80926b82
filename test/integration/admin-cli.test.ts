/** The admin CLI as an operator runs it (a real child process on the live server's DATA_DIR); every command with --json prints one JSON object. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '../../src/client/client.js';
import type { Reply } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { okOf, type AdminCommand, type AdminOutput } from './bodies.js';

const ADMIN = fileURLToPath(new URL('../../src/cli/admin.js', import.meta.url));

describe('admin CLI', () => {
  let t: TestServer;
  let dataDir: string;
  // Asynchronous on purpose: this process also hosts the server, whose LMDB transactions need the
  // event loop; blocking it in spawnSync while the CLI waits for the write lock would deadlock.
  const run = (args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [ADMIN, ...args],
        { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir }, timeout: 30_000 },
        (err, stdout, stderr) => {
          resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
        },
      );
    });
  /** Runs `admin <command> ...args --json` and returns the one JSON object it prints. */
  const admin = async <C extends AdminCommand>(command: C, ...args: string[]): Promise<AdminOutput[C]> => {
    const all = [...command.split(' '), ...args];
    const r = await run([...all, '--json']);
    assert.equal(r.status, 0, `admin ${all.join(' ')}: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'exactly one JSON object');
    return JSON.parse(lines[0]!) as AdminOutput[C];
  };
  const adminFails = (...args: string[]) => run(args);

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gov-cli-'));
    t = await startTestServer({ dataDir });
  });
  after(() => t.close());

  it('manages organizations, keys, limits, IP allowlists and scenarios while the server runs', async () => {
    const { org_id: orgId } = await admin('orgs create', '--name', 'CLI Org');
    assert.ok((await admin('orgs list')).orgs.some((o) => o.org_id === orgId));
    const key = await admin('keys create', '--org', orgId, '--permissions', 'governance:evaluate,governance:read');
    assert.match(key.api_key, /^gov_live_[0-9a-f]{48}$/);
    assert.match(key.signing_secret, /^gov_sig_[0-9a-f]{64}$/);
    const client = new GovernanceClient(t.baseUrl, { apiKey: key.api_key, signingSecret: key.signing_secret });
    assert.equal(
      (await client.call('GET', '/governance/policies')).status,
      200,
      'the running server sees a key the CLI created',
    );

    const file = join(dataDir, 'bp.json');
    writeFileSync(file, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    assert.deepEqual(
      (await admin('scenarios import', '--org', orgId, '--id', '4417', file)).imported.map((s) => [
        s.scenario_id,
        s.version,
      ]),
      [['4417', 1]],
    );
    assert.equal((await admin('scenarios import', '--org', orgId, '--id', '4417', file)).imported[0]?.version, 2);
    assert.equal((await client.call('GET', '/scenarios/4417/results')).status, 200);
    assert.deepEqual(
      (await admin('scenarios list', '--org', orgId)).scenarios.map((s) => s.scenario_id),
      ['4417'],
    );

    const limits = await admin('keys limits', key.key_id, '--per-minute', '2', '--per-hour', '100');
    assert.deepEqual([limits.per_minute, limits.per_hour], [2, 100]);
    await new Promise((r) => setTimeout(r, 1100));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.call('GET', `/scenarios/4417/results?i=${i}`)).status);
    assert.ok(statuses.includes(429), `limits raised or lowered per key apply: ${statuses.join(',')}`);
    await admin('keys limits', key.key_id, '--per-minute', '1000');

    assert.deepEqual((await admin('keys allow-ips', key.key_id, '10.0.0.0/8', '2001:db8::/32')).allow_ips, [
      '10.0.0.0/8',
      '2001:db8::/32',
    ]);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await client.call('GET', '/governance/policies?x=1')).status, 403);
    assert.equal((await adminFails('keys', 'allow-ips', key.key_id, 'not-a-cidr')).status, 1);
    await admin('keys allow-ips', key.key_id);

    // governance:manage is additive (issue 17): an operator grants it, or takes it away, per key.
    assert.deepEqual((await admin('keys permissions', key.key_id, 'governance:read,governance:evaluate')).permissions, [
      'governance:read',
      'governance:evaluate',
    ]);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await client.call('GET', '/waivers?x=1')).status, 403);
    await admin(
      'keys permissions',
      key.key_id,
      'governance:read,governance:evaluate,webhooks:manage,governance:manage',
    );
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await client.call('GET', '/waivers?x=2')).status, 200);
    assert.equal((await adminFails('keys', 'permissions', key.key_id, 'governance:everything')).status, 1);

    const rotated = await admin('keys rotate', key.key_id, '--overlap', '24h');
    assert.equal(rotated.rotated_from, key.key_id);
    await t.server.keyUsage.flush(); // the server's key use, written now rather than within KEY_USE_FLUSH_MS
    const listed = (await admin('keys list', '--org', orgId)).keys;
    assert.equal(listed.length, 2);
    assert.ok(listed.every((k) => k.hash === undefined));
    const lastUsed = new Map(listed.map((k) => [k.key_id, k.last_used_at]));
    assert.ok(!Number.isNaN(Date.parse(lastUsed.get(key.key_id) ?? '')), 'the key used above has a last use');
    assert.equal(lastUsed.get(rotated.key_id), null, 'the new key was never used');

    assert.equal((await admin('keys revoke', rotated.key_id)).key_id, rotated.key_id);
    await new Promise((r) => setTimeout(r, 1100));
    const revokedClient = new GovernanceClient(t.baseUrl, {
      apiKey: rotated.api_key,
      signingSecret: rotated.signing_secret,
    });
    assert.equal(
      (await revokedClient.call('GET', '/governance/policies')).status,
      401,
      'the running server honours a CLI revocation within a second',
    );
    assert.equal((await adminFails('keys', 'revoke', rotated.key_id)).status, 1);

    const retire = await admin('evaluations retire', '--days', '30');
    assert.equal(retire.deleted, 0, 'nothing completed 30 days ago');
    assert.ok(Math.abs(Date.parse(retire.retired_before) - (Date.now() - 30 * 86_400_000)) < 60_000);
    assert.equal((await adminFails('evaluations', 'retire', '--days', '0')).status, 1);

    assert.equal((await admin('scenarios delete', '--org', orgId, '4417')).deleted, true);
    assert.equal((await client.call('GET', '/scenarios/4417/results?after=delete')).status, 404);

    const user = await admin('users create', '--org', orgId, '--role', 'admin', '--email', 'ops@cli.test');
    assert.ok((user.password?.length ?? 0) >= 20, 'a generated password, shown once');
    const wm = okOf(await client.call<Reply<unknown>>('GET', '/governance/policies?wm=1')).meta.watermark;
    await t.server.store.flushed();
    assert.equal((await admin('watermarks show', wm)).key_id, key.key_id);
  });

  it('imports a directory and rejects invalid blueprints with the pointer of the problem', async () => {
    const { org_id: orgId } = await admin('orgs create', '--name', 'Dir Org');
    const dir = mkdtempSync(join(tmpdir(), 'gov-cli-bps-'));
    writeFileSync(join(dir, 'a.blueprint.json'), JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    assert.deepEqual(
      (await admin('scenarios import', '--org', orgId, dir)).imported.map((s) => s.scenario_id),
      ['a', 'b'],
    );
    writeFileSync(join(dir, 'bad.json'), '{"flow":[{"id":1}]}');
    const r = await adminFails('scenarios', 'import', '--org', orgId, join(dir, 'bad.json'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /at \/flow\/0\/module/);
  });
});
