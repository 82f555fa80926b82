/** examples/evaluate.mjs (the SDK's example) runs against a real server: inline for one file, a batch for several. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('examples/evaluate.mjs', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  /** Runs the example; resolves with its exit code and output (it exits 1 when there are critical findings). */
  async function example(...files: string[]): Promise<{ code: number; stdout: string }> {
    const env = {
      ...process.env,
      GOV_URL: t.baseUrl,
      GOV_API_KEY: t.creds.apiKey,
      GOV_SIGNING_SECRET: t.creds.signingSecret,
    };
    return run(process.execPath, ['examples/evaluate.mjs', ...files], { cwd: ROOT, env }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
  }

  it('evaluates one blueprint inline and exits 1 on its critical finding', async () => {
    const { code, stdout } = await example('examples/order-intake.blueprint.json');
    assert.equal(code, 1, stdout);
    assert.match(stdout, /critical +SEC-1 +Hard-coded credential/);
  });

  it('evaluates several as one ephemeral batch, polled to completion', async () => {
    const { code, stdout } = await example(
      'examples/weekly-revenue-report.blueprint.json',
      'examples/lead-enrichment.blueprint.json',
    );
    assert.equal(code, 0, stdout);
    assert.match(stdout, /weekly-revenue-report\.blueprint\.json: Weekly revenue report, score 100\/100/);
    assert.match(stdout, /lead-enrichment\.blueprint\.json: .*0 critical/);
  });
});
