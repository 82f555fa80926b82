/**
 * `npm run demo [-- blueprint.json]` (src/client/demo.ts) as a newcomer runs it, the built script as a
 * child process: the whole flow against a real server, and (issue 30) a blueprint that cannot be read
 * or is not JSON named with its error in one line before anything else.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DEMO = fileURLToPath(new URL('../../src/client/demo.js', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** One finished run of the demo. */
interface DemoRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node dist/src/client/demo.js ...args` in `cwd` with `env` added (GOV_URL, PORT, HOST, DATA_DIR unset first). */
function demo(args: readonly string[], cwd: string, env: Record<string, string>): Promise<DemoRun> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['GOV_URL', 'PORT', 'HOST', 'DATA_DIR'].includes(k)),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEMO, ...args],
      { cwd, env: { ...base, ...env }, encoding: 'utf8', timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A loopback origin nothing listens on (bound, then closed): a request to it is refused. */
async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('npm run demo', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-demo-'));
    writeFileSync(join(dir, 'broken.json'), '{\n  "flow": [\n    { "id": 1, }\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names a malformed blueprint and its JSON error in one line before anything else', async () => {
    // No bootstrap.json and no service: either would be the error if the demo did anything first.
    const run = await demo(['broken.json'], dir, { DATA_DIR: dir, GOV_URL: await refusedOrigin() });
    assert.notEqual(run.code, 0);
    assert.equal(run.stdout, '', 'nothing done before');
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1, run.stderr);
    assert.ok(lines[0]!.startsWith('demo failed: broken.json is not valid JSON: '), lines[0]);
    assert.match(lines[0]!, /property name|Unexpected token/, 'the JSON error itself');
  });

  it('names a blueprint it cannot read in one line before anything else', async () => {
    const run = await demo(['missing.json'], dir, { DATA_DIR: dir, GOV_URL: await refusedOrigin() });
    assert.notEqual(run.code, 0);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      "demo failed: cannot read missing.json: ENOENT: no such file or directory, open 'missing.json'\n",
    );
  });

  describe('against a running service', () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer();
      const ids: string[] = [];
      for (const f of readdirSync(EXAMPLES).filter((n) => n.endsWith('.blueprint.json'))) {
        const id = basename(f, '.blueprint.json');
        await importScenario(t.server.store.scenarios, t.orgId, id, readFileSync(join(EXAMPLES, f), 'utf8'));
        ids.push(id);
      }
      const creds = {
        org_id: t.orgId,
        api_key: t.creds.apiKey,
        signing_secret: t.creds.signingSecret,
        scenario_ids: ids,
      };
      writeFileSync(join(dir, 'bootstrap.json'), JSON.stringify(creds));
    });
    after(() => t.close());

    it('runs the flow of spec §1 and the inline evaluation of the given blueprint', async () => {
      const run = await demo([join(EXAMPLES, 'order-intake.blueprint.json')], dir, {
        DATA_DIR: dir,
        PORT: new URL(t.baseUrl).port,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /2\. Poll GET \/evaluations\/\{id\}[^\n]*\n {3}status complete/);
      assert.match(run.stdout, /second redemption: 401 /);
      assert.match(
        run.stdout,
        /6\. POST \/evaluate\/inline with .*order-intake\.blueprint\.json\n {3}.*score \d+\/100/,
      );
      assert.match(run.stdout, /\nDone\.\n$/);
    });
  });
});
