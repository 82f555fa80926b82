/**
 * examples/evaluate.mjs (the SDK's example) runs against a real server: inline for one file, a batch for
 * several; it finds the service as `npm run demo` does (GOV_URL, else PORT), and a newcomer's mistakes
 * (issue 30: no service, a wrong path, a broken file, no first start yet) end with exit 2 and one line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A loopback port nothing listens on (bound, then closed): a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Asserts the example's error output is exactly one line (no stack trace) and returns it. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${stderr}`);
  return lines[0]!;
}

describe('examples/evaluate.mjs', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  /**
   * Runs the example with the test server's key, GOV_URL and PORT unset, then `env` (a value of
   * `undefined` removes the variable); resolves with its exit code and output (it exits 1 when there
   * are critical findings, 2 on an error).
   */
  async function example(
    files: readonly string[],
    env: Record<string, string | undefined> = { GOV_URL: t.baseUrl },
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const merged: Record<string, string | undefined> = {
      ...process.env,
      GOV_URL: undefined,
      PORT: undefined,
      GOV_API_KEY: t.creds.apiKey,
      GOV_SIGNING_SECRET: t.creds.signingSecret,
      ...env,
    };
    const childEnv = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
    return run(process.execPath, ['examples/evaluate.mjs', ...files], { cwd: ROOT, env: childEnv }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({
        code: err.code,
        stdout: err.stdout,
        stderr: err.stderr,
      }),
    );
  }

  it('evaluates one blueprint inline and exits 1 on its critical finding', async () => {
    const { code, stdout } = await example(['examples/order-intake.blueprint.json']);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /critical +SEC-1 +Hard-coded credential/);
  });

  it('evaluates several as one ephemeral batch, polled to completion', async () => {
    const { code, stdout } = await example([
      'examples/weekly-revenue-report.blueprint.json',
      'examples/lead-enrichment.blueprint.json',
    ]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /weekly-revenue-report\.blueprint\.json: Weekly revenue report, score 100\/100/);
    assert.match(stdout, /lead-enrichment\.blueprint\.json: .*0 critical/);
  });

  it('finds the service on http://127.0.0.1:$PORT without GOV_URL, as npm run demo does', async () => {
    const port = new URL(t.baseUrl).port;
    const { code, stdout, stderr } = await example(['examples/weekly-revenue-report.blueprint.json'], { PORT: port });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Weekly revenue report, score 100\/100/);
  });

  it('prefers GOV_URL to PORT', async () => {
    // Another blueprint than the test before: the same body signed in the same second by another
    // process is the same signature, which the service refuses as a replay.
    const { code, stderr } = await example(['examples/lead-enrichment.blueprint.json'], {
      GOV_URL: t.baseUrl,
      PORT: String(await closedPort()),
    });
    assert.equal(code, 0, stderr);
  });

  it('exits 2 with one line when the service is not running (connection refused)', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await example(['examples/weekly-revenue-report.blueprint.json'], {
      PORT: String(port),
    });
    assert.equal(code, 2, stdout);
    const line = oneLine(stderr);
    assert.match(line, new RegExp(`no answer from http://127\\.0\\.0\\.1:${port} .*ECONNREFUSED`));
    assert.match(line, /npm start/);
  });

  describe('bad input, refused before any request', () => {
    let dir: string;
    let refused: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gov-example-'));
      writeFileSync(join(dir, 'broken.json'), '{ "flow": [ { "id": 1, }');
      // Any request would go to a port nothing listens on and end in "no answer from ...".
      refused = `http://127.0.0.1:${await closedPort()}`;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('exits 2 with one line naming a file it cannot read', async () => {
      const missing = join(dir, 'missing.blueprint.json');
      const { code, stderr } = await example([missing], { GOV_URL: refused });
      assert.equal(code, 2);
      const line = oneLine(stderr);
      assert.ok(line.includes(`cannot read ${missing}: ENOENT`), line);
    });

    it('exits 2 with one line naming a malformed blueprint and the JSON error, even after a good one', async () => {
      const broken = join(dir, 'broken.json');
      const { code, stderr } = await example(['examples/weekly-revenue-report.blueprint.json', broken], {
        GOV_URL: refused,
      });
      assert.equal(code, 2);
      const line = oneLine(stderr);
      assert.ok(line.startsWith(`evaluate: ${broken} is not valid JSON: `), line);
      assert.match(line, /property name|Unexpected token/, 'the JSON error itself');
    });

    it('exits 2 with one line saying what to do when there is no GOV_API_KEY and no bootstrap.json', async () => {
      const { code, stderr } = await example(['examples/weekly-revenue-report.blueprint.json'], {
        GOV_URL: refused,
        GOV_API_KEY: undefined,
        GOV_SIGNING_SECRET: undefined,
        DATA_DIR: dir,
      });
      assert.equal(code, 2);
      const line = oneLine(stderr);
      assert.ok(line.includes(join(dir, 'bootstrap.json')), line);
      assert.match(line, /npm start.*GOV_API_KEY and GOV_SIGNING_SECRET/);
    });
  });
});
