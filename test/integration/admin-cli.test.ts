/**
 * The admin CLI as an operator runs it (a real child process on the live server's DATA_DIR); every
 * command with --json prints one JSON object; its help, error output and exit codes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '../../src/client/client.js';
import type { Reply } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { okOf, type AdminCommand, type AdminOutput } from './bodies.js';
import type { Command } from 'commander';
import { buildCli } from '../../src/cli/admin.js';
import { CLI_ERRORS, EXIT_CODES, exitCodeOf, type CliErrorCode } from '../../src/cli/admin-errors.js';
import { runAdmin } from '../helpers/admin.js';

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
    assert.equal(
      (await adminFails('keys', 'allow-ips', key.key_id, 'not-a-cidr')).status,
      2,
      'a bad CIDR is a usage error',
    );
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
    assert.equal((await adminFails('keys', 'permissions', key.key_id, 'governance:everything')).status, 2);

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
    assert.equal((await adminFails('evaluations', 'retire', '--days', '0')).status, 2);

    assert.equal((await admin('scenarios delete', '--org', orgId, '4417')).deleted, true);
    assert.equal((await client.call('GET', '/scenarios/4417/results?after=delete')).status, 404);

    const user = await admin('users create', '--org', orgId, '--role', 'admin', '--email', 'ops@cli.test');
    assert.ok((user.password?.length ?? 0) >= 20, 'a generated password, shown once');
    const wm = okOf(await client.call<Reply<unknown>>('GET', '/governance/policies?wm=1')).meta.watermark;
    await t.server.store.flushed();
    assert.equal((await admin('watermarks show', wm)).key_id, key.key_id);
  });

  it('reads --expires-at as an RFC 3339 date-time only (a usage error otherwise) and stores it in UTC', async () => {
    const { org_id: orgId } = await admin('orgs create', '--name', 'Expiry Org');
    for (const expires of ['2027-02-30T00:00:00Z', '2027-02-29T00:00:00Z', '2027-03-01T00:00:00', '2027-03-01']) {
      const r = await run(['keys', 'create', '--org', orgId, '--expires-at', expires, '--json']);
      assert.equal(r.status, exitCodeOf('usage'), `${expires}: ${r.stderr}`);
      const error = JSON.parse(r.stderr) as { error: string; detail: string };
      assert.equal(error.error, 'usage');
      assert.match(error.detail, /RFC 3339 date-time with Z or an offset/);
    }
    const key = await admin('keys create', '--org', orgId, '--expires-at', '2027-03-01T00:30:00+01:00');
    const listed = await t.server.store.organizations.getKey(key.key_id);
    assert.equal(listed?.expires_at, '2027-02-28T23:30:00.000Z');
  });

  it('refuses a --password outside the console policy as a usage error (exit 2) and creates no account', async () => {
    const { org_id: orgId } = await admin('orgs create', '--name', 'Password Org');
    const email = 'Night.Shift@cli.test';
    for (const password of ['a', 'x7#kQ9!mZp2', 'night.shift@cli.test', 'night.shift', 'Password1234']) {
      const r = await run(['users', 'create', '--org', orgId, '--email', email, '--password', password, '--json']);
      assert.equal(r.status, exitCodeOf('usage'), `${password}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      const error = JSON.parse(r.stderr) as { error: string; detail: string };
      assert.equal(error.error, 'usage');
      assert.match(
        error.detail,
        /^--password (must be 12 to 1024 characters|must not be or contain|is a commonly used)/,
      );
      if (password.length > 1) assert.ok(!error.detail.includes(password), 'the password is not repeated');
    }
    const signIn = (password: string) =>
      fetch(`${t.baseUrl}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    assert.equal((await signIn('a')).status, 401, 'no account was made with a refused password');
    const good = 'a fine night shift password';
    const user = await admin('users create', '--org', orgId, '--email', email, '--password', good);
    assert.equal(user.email, 'night.shift@cli.test', 'the e-mail was free: no refused run created it');
    assert.equal(user.password, undefined, 'a chosen password is not printed');
    assert.equal((await signIn(good)).status, 200);
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

/** Every command of the CLI with its path (`keys create`), the program itself as ''. */
function allCommands(cmd: Command, path: string[] = []): { path: string; cmd: Command }[] {
  return [{ path: path.join(' '), cmd }, ...cmd.commands.flatMap((c) => allCommands(c, [...path, c.name()]))];
}

/** The help a command prints for `--help`, "after" texts included. */
function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (text) => (out += text) });
  cmd.outputHelp();
  return out;
}

/** The rows of the markdown table that follows `heading` in `doc`, as cells without backticks. */
function tableAfter(doc: string, heading: string): string[][] {
  const start = doc.indexOf(heading);
  assert.ok(start >= 0, `${heading} is in the document`);
  const lines = doc.slice(start + heading.length).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim().replace(/`/g, '')),
    );
  }
  return rows;
}

describe('admin CLI help, errors and exit codes', () => {
  const commands = allCommands(buildCli());

  it('gives every command, argument and option a description and every command an example in --help', () => {
    assert.ok(commands.length >= 25, `${commands.length} commands`);
    for (const { path, cmd } of commands) {
      const name = path || 'admin';
      assert.ok(cmd.description().length > 10, `${name} has a description`);
      for (const option of cmd.options) assert.ok(option.description.length > 3, `${name} ${option.flags}`);
      for (const arg of cmd.registeredArguments) assert.ok(arg.description.length > 3, `${name} <${arg.name()}>`);
      const help = helpOf(cmd);
      const example = /\nExample:\n((?: {2}\$ npm run -s admin -- .+\n?)+)/.exec(help);
      assert.ok(example, `${name} --help has an Example section:\n${help}`);
      for (const line of example[1]!.trim().split('\n'))
        assert.ok(line.includes(`-- ${path}`), `${name}: the example runs the command itself: ${line}`);
    }
  });

  it('lists the exit codes and the JSON error form in admin --help, and exits 0 after help', async () => {
    const run = await runAdmin(['--help'], {});
    assert.equal(run.status, 0);
    for (const { code, meaning } of Object.values(EXIT_CODES)) assert.ok(run.stdout.includes(`  ${code}  ${meaning}`));
    assert.match(
      run.stdout,
      /With --json, an error is one JSON object on stderr: \{"error": "<code>", "detail": "<text>"\}/,
    );
    const sub = await runAdmin(['backup', '--help'], {});
    assert.equal(sub.status, 0);
    assert.match(sub.stdout, /--compact\s+copy only the pages in use/);
  });

  it('prints every usage error with --json as one JSON object on stderr and exits 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-cli-usage-'));
    try {
      const cases = [
        ['nope', '--json'],
        ['orgs', 'create', '--json'],
        ['keys', 'create', '--org', 'org_x', '--bogus', '--json'],
        ['keys', 'create', '--org', 'org_x', '--permissions', 'governance:everything', '--json'],
        ['keys', 'allow-ips', 'key_x', 'not-a-cidr', '--json'],
        ['keys', 'rotate', 'key_x', '--overlap', 'soon', '--json'],
        ['evaluations', 'retire', '--days', '0', '--json'],
        ['users', 'create', '--org', 'org_x', '--email', 'a@b.test', '--role', 'king', '--json'],
        ['backup', '--json'],
        ['keys', '--json'],
      ];
      const runs = await Promise.all(cases.map((args) => runAdmin(args, { DATA_DIR: dataDir })));
      runs.forEach((run, i) => {
        const name = cases[i]!.join(' ');
        assert.equal(run.status, exitCodeOf('usage'), `${name}: ${run.stderr}`);
        assert.equal(run.stdout, '', `${name}: nothing on stdout`);
        const lines = run.stderr.trimEnd().split('\n');
        assert.equal(lines.length, 1, `${name}: one line on stderr: ${run.stderr}`);
        const error = JSON.parse(lines[0]!) as { error: string; detail: string };
        assert.deepEqual(Object.keys(error), ['error', 'detail']);
        assert.equal(error.error, 'usage');
        assert.ok(error.detail.length > 5, name);
      });
      const text = await runAdmin(['orgs', 'create'], { DATA_DIR: dataDir });
      assert.equal(text.status, 2);
      assert.equal(text.stderr, "error: required option '--name <name>' not specified\n");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints failures of an operation and of the environment with --json as their code, with its exit code', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-cli-fail-'));
    try {
      const expect = async (code: CliErrorCode, args: string[], env: Record<string, string>) => {
        const run = await runAdmin([...args, '--json'], { DATA_DIR: dataDir, ...env });
        assert.equal(run.status, exitCodeOf(code), `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stdout, '');
        assert.equal((JSON.parse(run.stderr) as { error: string }).error, code);
      };
      await expect('not_found', ['keys', 'revoke', 'key_missing'], {});
      await expect('not_found', ['watermarks', 'show', 'wm_00000000'], {});
      await expect('configuration', ['orgs', 'list'], { STORE: 'cassandra' });
      const org = JSON.parse(
        (await runAdmin(['orgs', 'create', '--name', 'U', '--json'], { DATA_DIR: dataDir })).stdout,
      ) as {
        org_id: string;
      };
      await runAdmin(['users', 'create', '--org', org.org_id, '--email', 'x@y.test', '--json'], { DATA_DIR: dataDir });
      await expect('conflict', ['users', 'create', '--org', org.org_id, '--email', 'x@y.test'], {});
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('documents the exit codes and error codes in docs/operations.md as src/cli/admin-errors defines them', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8');
    const section = doc.slice(doc.indexOf('## Admin CLI'));
    assert.deepEqual(
      tableAfter(section, 'Exit codes'),
      Object.values(EXIT_CODES).map((x) => [String(x.code), x.meaning]),
    );
    assert.deepEqual(
      tableAfter(section, 'Error codes'),
      Object.entries(CLI_ERRORS).map(([code, x]) => [code, String(EXIT_CODES[x.exit].code), x.meaning]),
    );
  });
});
