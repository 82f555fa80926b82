/**
 * Issue 30, item 4: docs/getting-started.md's three paths, run as the page writes them. Its command
 * blocks are read from the page (test/helpers/page-blocks) and run with bash in this checkout, in a
 * temporary HOME, against real service processes on free ports: the tenant developer's key, SDK
 * install from the packed tarball, submit → wait → results and a verified webhook; the operator's
 * health checks, backup, restore by starting on the copy, and scripts/cluster-local.sh (three nodes
 * and a redis-server on free ports); the benchmark commands are checked against the benchmark's
 * registry and CI's script, not run (CI runs the quick benchmark after the tests).
 *
 * Not run as written: `npm ci` (this runs in an installed checkout) and the build `npm start` does
 * first (prestart; the suite has built): a service block's `npm start` is replaced by package.json's
 * start script, with the block's variable assignments kept. Docker is not run (no engine here).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import { CORPUS_ENV } from '../../bench/lib/corpus-dir.js';
import { CORPUS_ROWS, parseBenchArgs } from '../../bench/lib/scenarios.js';
import { startServiceCommand, type ServiceProcess } from '../helpers/process.js';
import { freePortRun } from '../helpers/free-ports.js';
import { commandLines, pageBlocks, readEnvDump, segmentScript, type PageBlock } from '../helpers/page-blocks.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const SDK_VERSION = (JSON.parse(readFileSync(join(ROOT, 'packages/sdk/package.json'), 'utf8')) as { version: string })
  .version;
/** The segments of the page this file runs; the page has no other. */
const SEGMENTS = ['tenant', 'operator', 'operator-restore', 'cluster', 'cluster-stop'];
/** Variables kept from this process's environment; everything else a block sees is set here. */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TZ'];

interface Bootstrap {
  readonly org_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
  readonly scenario_ids: readonly string[];
}

/** One path's temporary HOME, DATA_DIR and ports, and the environment its blocks run with. */
interface Workspace {
  readonly home: string;
  readonly dataDir: string;
  readonly port: number;
  readonly metricsPort: number;
  readonly env: NodeJS.ProcessEnv;
}

/** The result of one segment run by bash. */
interface SegmentRun {
  readonly stdout: string;
  readonly stderr: string;
  /** The environment after each `run` block, in order. */
  readonly envs: Map<string, string>[];
}

const blocks = pageBlocks(PAGE);

describe('docs/getting-started.md, run as written', () => {
  let root: string;
  const services: ServiceProcess[] = [];
  let tarballExisted = false;
  let clusterEnv: NodeJS.ProcessEnv | null = null;

  /** A fresh workspace under the temporary root: its own HOME, DATA_DIR (not created) and two free ports. */
  const workspace = async (name: string, extra: Record<string, string> = {}): Promise<Workspace> => {
    const home = join(root, name, 'home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const dataDir = join(root, name, 'data');
    const port = await freePortRun(2);
    const metricsPort = port + 1;
    const inherited = Object.fromEntries(
      INHERITED.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
    );
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      HOME: home,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      // Lighter than the defaults on a shared 2-core machine; neither changes what the page shows.
      POOL_THREADS: '1',
      LOG_LEVEL: 'warn',
      // npm: no network (the SDK tarball has no dependencies), no notices.
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...extra,
    };
    return { home, dataDir, port, metricsPort, env };
  };

  /** Starts the service as the page's service block of `segment` says, in this checkout, with `env`. */
  const startFromPage = async (segment: string, env: NodeJS.ProcessEnv): Promise<ServiceProcess> => {
    const svc = await startServiceCommand(serviceCommand(segment), env, ROOT);
    services.push(svc);
    return svc;
  };

  /** Runs the page's blocks of `segment` with bash in this checkout. @throws AssertionError with the output when bash fails. */
  const runSegment = async (segment: string, env: NodeJS.ProcessEnv): Promise<SegmentRun> => {
    const stateDir = mkdtempSync(join(root, `${segment}-state-`));
    const script = join(stateDir, 'script.sh');
    writeFileSync(script, segmentScript(blocks, segment, stateDir));
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', [script], { cwd: ROOT, env, timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    assert.equal(result.code, 0, `segment ${segment} failed:\n${result.stdout}\n${result.stderr}`);
    const dumps = readdirSync(stateDir)
      .filter((f) => f.endsWith('.env'))
      .sort((a, b) => Number(/-(\d+)\.env$/.exec(a)![1]) - Number(/-(\d+)\.env$/.exec(b)![1]));
    return { ...result, envs: dumps.map((f) => readEnvDump(readFileSync(join(stateDir, f), 'utf8'))) };
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'gov-getting-started-'));
    tarballExisted = existsSync(join(ROOT, `gov-sdk-${SDK_VERSION}.tgz`));
  });
  after(async () => {
    for (const svc of services) await svc.stop('SIGTERM');
    if (clusterEnv && existsSync(join(clusterEnv['CLUSTER_DIR']!, 'redis.pid')))
      await new Promise((resolve) =>
        execFile('bash', ['scripts/cluster-local.sh', 'stop'], { cwd: ROOT, env: clusterEnv! }, resolve),
      );
    // The tarball the tenant path packed into the checkout (gitignored); one that was there before stays.
    if (!tarballExisted) rmSync(join(ROOT, `gov-sdk-${SDK_VERSION}.tgz`), { force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('marks every block, and its segments are the ones this test runs', () => {
    const segments = [...new Set(blocks.filter((b) => b.segment !== '').map((b) => b.segment))];
    assert.deepEqual(segments.sort(), [...SEGMENTS].sort());
    // A block the test does not run is a Docker command, nothing that could run here.
    for (const block of blocks.filter((b) => b.kind === 'not-run'))
      for (const line of commandLines(block)) assert.match(line, /^docker /, `line ${block.line}: ${line}`);
  });

  it("links only to files that exist and to headings they have (GitHub's anchors)", () => {
    const links = [...PAGE.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^https?:/.test(l));
    assert.ok(links.length > 0);
    for (const link of links) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? join(ROOT, 'docs/getting-started.md') : join(ROOT, 'docs', file);
      assert.ok(existsSync(target), `${link}: ${target} exists`);
      if (anchor === undefined) continue;
      const slugs = [...readFileSync(target, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => githubSlug(m[1]!));
      assert.ok(slugs.includes(anchor), `${link}: a heading of ${file || 'the page'} has the anchor #${anchor}`);
    }
  });

  it('path 1, a tenant developer: a key, the SDK from the packed tarball, submit → wait → results, a verified webhook', async () => {
    const ws = await workspace('tenant');
    const svc = await startFromPage('tenant', ws.env);
    assert.match(svc.output, /First start: created a demo organization/);
    const demo = JSON.parse(readFileSync(join(ws.dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;

    const run = await runSegment('tenant', ws.env);
    const [demoKey, ownKey] = run.envs;
    assert.equal(demoKey?.get('GOV_URL'), `http://127.0.0.1:${ws.port}`);
    assert.equal(demoKey?.get('GOV_API_KEY'), demo.api_key, 'the first block exports the demo key of bootstrap.json');
    assert.equal(demoKey?.get('GOV_SIGNING_SECRET'), demo.signing_secret);
    assert.match(ownKey?.get('GOV_API_KEY') ?? '', /^gov_live_[0-9a-f]{48}$/, 'the admin CLI made a key');
    assert.notEqual(ownKey?.get('GOV_API_KEY'), demo.api_key);
    assert.match(ownKey?.get('GOV_SIGNING_SECRET') ?? '', /^gov_sig_[0-9a-f]{64}$/);
    const installed = JSON.parse(readFileSync(join(ws.home, 'gov-try/node_modules/@gov/sdk/package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(installed.version, SDK_VERSION, 'the project installed the packed SDK');

    // evaluate.mjs, with the key the admin CLI made (the later export wins).
    const submitted = [...run.stdout.matchAll(/^submitted evaluation ([0-9a-f-]{36})$/gm)].map((m) => m[1]);
    assert.equal(submitted.length, 2, run.stdout);
    assert.match(run.stdout, /^evaluation complete$/m);
    for (const id of ['order-intake', 'lead-enrichment'])
      assert.match(run.stdout, new RegExp(`^${id}: score \\d+/100, \\d+ failing policies$`, 'm'));
    assert.match(run.stdout, /^ {2}(?:critical|high|medium|low) +[A-Z]+-\d+ +\S/m, 'the failing policies are listed');
    // webhook.mjs: the delivery of its own evaluation, verified.
    assert.match(run.stdout, new RegExp(`^verified evaluation\\.complete for evaluation ${submitted[1]}$`, 'm'));
    await svc.stop('SIGTERM');
  });

  it('path 2, an operator: start, health and metrics, a hot backup, a restore by starting on the copy', async () => {
    const ws = await workspace('operator');
    const first = await startFromPage('operator', ws.env);
    assert.match(first.output, /First start: created a demo organization/);
    const demo = JSON.parse(readFileSync(join(ws.dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;

    const run = await runSegment('operator', ws.env);
    assert.match(run.stdout, /^\{"status":"ok"\}$/m);
    assert.match(run.stdout, /^\{"status":"ready",/m);
    assert.match(run.stdout, /^gov_build_info\{/m);
    assert.match(run.stdout, /^gov_pool_workers \d+$/m);
    assert.match(run.stdout, /^gov_store_used_bytes \d+$/m);
    const backup = join(ws.home, 'gov-backup');
    assert.equal(statSync(backup).mode & 0o777, 0o700, 'the copy can serve as a DATA_DIR');
    assert.deepEqual(readdirSync(backup).sort(), ['gov.mdb', 'secrets.json']);

    // Ctrl-C in the service's terminal, then the page's start on the copy (the same ports).
    assert.equal((await first.stop('SIGINT')).code, 0);
    const restored = await startFromPage('operator-restore', ws.env);
    assert.doesNotMatch(restored.output, /First start/, 'the copy holds the store: no new demo organization');
    const check = await runSegment('operator-restore', ws.env);
    assert.match(check.stdout, /^\{"status":"ready",/m);
    assert.match(check.stdout, /^examples\/lead-enrichment\.blueprint\.json: .*, score \d+\/100$/m);
    // The copy holds what the first start stored: the demo organization's scenarios.
    const client = new GovernanceClient(restored.baseUrl, { apiKey: demo.api_key, signingSecret: demo.signing_secret });
    const rollup = await client.call<{ data: { scenarios_total: number } }>('GET', '/organization/rollup');
    assert.equal(rollup.status, 200, rollup.raw);
    assert.equal(rollup.body.data.scenarios_total, demo.scenario_ids.length);
    await restored.stop('SIGTERM');
  });

  it('path 2, cluster mode on one machine: scripts/cluster-local.sh starts Redis and three nodes that share one store, and stops them', async () => {
    const nodes = 3;
    const dir = join(root, 'cluster', 'cluster-data');
    // One run of free ports: Redis's, then the nodes' API ports, then their operators' ports.
    const base = await freePortRun(1 + 2 * nodes);
    const ws = await workspace('cluster', {
      CLUSTER_DIR: dir,
      CLUSTER_REDIS_PORT: String(base),
      CLUSTER_API_PORT: String(base + 1),
      CLUSTER_OPS_PORT: String(base + 1 + nodes),
    });
    clusterEnv = ws.env;
    const apiPort = Number(ws.env['CLUSTER_API_PORT']);

    const run = await runSegment('cluster', ws.env);
    for (let i = 1; i <= nodes; i++) assert.match(run.stdout, new RegExp(`^node ${i} +pid \\d+ .*/readyz 200$`, 'm'));
    assert.match(run.stdout, /^redis-server +pid \d+ .* PONG$/m);

    // Node 1's demo key on node 3, the evaluation read back on node 2: one shared store.
    const demo = JSON.parse(readFileSync(join(dir, 'node-1', 'bootstrap.json'), 'utf8')) as Bootstrap;
    const creds = { apiKey: demo.api_key, signingSecret: demo.signing_secret };
    const third = new GovernanceClient(`http://127.0.0.1:${apiPort + 2}`, creds);
    const second = new GovernanceClient(`http://127.0.0.1:${apiPort + 1}`, creds);
    // A failure here says what the nodes logged (their logs go with the temporary directory).
    const logs = () =>
      ['redis', ...Array.from({ length: nodes }, (_, i) => `node-${i + 1}`)]
        .map((name) => {
          const file = join(dir, 'logs', `${name}.log`);
          const text = existsSync(file) ? readFileSync(file, 'utf8') : '(no log)';
          return `--- ${name}.log (end)\n${text.split('\n').slice(-15).join('\n')}`;
        })
        .join('\n');
    try {
      const submit = await third.call<{ data: { evaluation_id: string } }>('POST', '/evaluate', {
        scenario_ids: demo.scenario_ids,
      });
      assert.equal(submit.status, 200, submit.raw);
      const done = await pollEvaluation<{ data: { status: string } }>(second, submit.body.data.evaluation_id, {
        delaysMs: [100],
      });
      assert.equal(done.body.data.status, 'complete');
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(
        `${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}\n${logs()}`,
        { cause: error },
      );
    }

    const pids = ['redis', ...Array.from({ length: nodes }, (_, i) => `node-${i + 1}`)].map((name) =>
      Number(readFileSync(join(dir, `${name}.pid`), 'utf8')),
    );
    const stop = await runSegment('cluster-stop', ws.env);
    for (let i = 1; i <= nodes; i++) assert.match(stop.stdout, new RegExp(`stopped node ${i} \\(pid`));
    assert.match(stop.stdout, /stopped redis-server \(pid/);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `process ${pid} ended`);
  });

  it('path 3, the benchmark: its commands are ones the bench accepts, and the first is the run CI does', () => {
    const commands = blocks.filter((b) => b.kind === 'bench').flatMap(commandLines);
    assert.ok(commands.length > 0);
    const parsed = commands.map((line) => {
      const m = /^((?:[A-Z_]+=\S+\s+)*)npm run bench -- (.+)$/.exec(line);
      assert.ok(m, `a bench command: ${line}`);
      for (const assignment of m[1]!.trim().split(/\s+/).filter(Boolean))
        assert.equal(assignment.split('=')[0], CORPUS_ENV, `only ${CORPUS_ENV} is set: ${line}`);
      return { line, env: m[1]!.trim(), args: parseBenchArgs(m[2]!.split(/\s+/)) };
    });
    assert.ok(PACKAGE.scripts['bench'], 'package.json has the bench script');
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n');
    assert.ok(ci.includes(parsed[0]!.line), `.ci/run runs "${parsed[0]!.line}"`);
    assert.ok(parsed[0]!.args.quick && parsed[0]!.env === '');
    assert.ok(
      parsed.some((p) => p.args.names.length === 1 && p.env === ''),
      'one command runs a single scenario',
    );
    assert.ok(
      parsed.some((p) => p.env !== ''),
      `one command sets ${CORPUS_ENV}`,
    );
    // What a clone without the corpus skips, named as the bench's registry names the rows.
    for (const rows of Object.values(CORPUS_ROWS)) assert.ok(PAGE.includes(`\`${rows.rows}\``), rows.rows);
  });
});

/**
 * The command of the page's service block of `segment`, as run here: `npm ci` dropped (this runs in
 * an installed checkout) and `npm start` replaced by package.json's start script, which is what it
 * runs after its prestart build (the suite has built; a build here would rewrite dist/ under other
 * tests). The block's variable assignments stay, and `exec` makes the process the service itself.
 */
function serviceCommand(segment: string): string {
  const service = blocks.filter((b: PageBlock) => b.kind === 'service' && b.segment === segment);
  assert.equal(service.length, 1, `one service block in segment ${segment}`);
  const lines = commandLines(service[0]!)
    .filter((line) => line !== 'npm ci')
    .map((line) => line.replace(/^npm ci && /, ''));
  assert.equal(lines.length, 1, `one start command: ${lines.join('; ')}`);
  const m = /^((?:[A-Z_]+=\S+\s+)*)npm start$/.exec(lines[0]!);
  assert.ok(m, `the service block ends with npm start: ${lines[0]}`);
  assert.equal(PACKAGE.scripts['prestart'], 'npm run build');
  const start = PACKAGE.scripts['start'];
  assert.equal(start, 'node dist/src/server/main.js');
  return `${m[1]}exec ${start}`;
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
