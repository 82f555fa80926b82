/**
 * Issue 30: the first start evaluates the demo scenarios once, as an ordinary evaluation, so the rollup
 * and the console's overview show a fleet score at once; later starts do not evaluate them again, and
 * `BOOTSTRAP_DEMO=false` starts without any of it. The real service process on a fresh DATA_DIR.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import { startService, type ServiceProcess } from '../helpers/process.js';

interface Bootstrap {
  readonly org_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
  readonly scenario_ids: readonly string[];
  readonly console: { readonly email: string; readonly password: string };
}

interface Rollup {
  readonly score: number | null;
  readonly scenarios_total: number;
  readonly scenarios_evaluated: number;
}

interface Overview {
  readonly rollup: Rollup;
  readonly evaluations_by_day: readonly { readonly evaluations: number; readonly scenarios: number }[];
}

/** The evaluation ids of the first-start line (`First start: evaluating the demo scenarios once (evaluation <id>)`). */
function firstStartEvaluations(output: string): string[] {
  const m = /First start: evaluating the demo scenarios once \(evaluation ([^)]+)\)/.exec(output);
  return m ? m[1]!.split(', ') : [];
}

/** The console's overview, read as the owner of bootstrap.json (sign-in, then `GET /api/v1/overview`). */
async function overview(svc: ServiceProcess, creds: Bootstrap): Promise<Overview> {
  const signIn = await fetch(`${svc.baseUrl}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: creds.console.email, password: creds.console.password }),
  });
  assert.equal(signIn.status, 200);
  const { session_token } = ((await signIn.json()) as { data: { session_token: string } }).data;
  const res = await fetch(`${svc.baseUrl}/api/v1/overview`, { headers: { authorization: `Bearer ${session_token}` } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: Overview }).data;
}

const evaluationsIn = (o: Overview): number => o.evaluations_by_day.reduce((n, d) => n + d.evaluations, 0);

describe('first start: the demo scenarios are evaluated once', () => {
  let root: string;
  let dataDir: string;
  let svc: ServiceProcess | null = null;
  let creds: Bootstrap;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'gov-first-eval-'));
    dataDir = join(root, 'data');
    svc = await startService({ DATA_DIR: dataDir, BOOTSTRAP_DEMO: 'true' });
    creds = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  });
  after(async () => {
    await svc?.stop('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  });

  it('evaluates them as an ordinary evaluation: the rollup has a fleet score for every demo scenario', async () => {
    const ids = firstStartEvaluations(svc!.output);
    assert.equal(ids.length, 1, `one evaluation is announced: ${svc!.output}`);
    const client = new GovernanceClient(svc!.baseUrl, { apiKey: creds.api_key, signingSecret: creds.signing_secret });
    const done = await pollEvaluation<{ data: { status: string; total_scenarios: number } }>(client, ids[0]!, {
      delaysMs: [100],
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.data.status, 'complete');
    assert.equal(done.body.data.total_scenarios, creds.scenario_ids.length);

    const rollup = await client.call<{ data: Rollup }>('GET', '/organization/rollup');
    assert.equal(rollup.status, 200);
    assert.equal(rollup.body.data.scenarios_total, creds.scenario_ids.length);
    assert.equal(rollup.body.data.scenarios_evaluated, creds.scenario_ids.length);
    assert.equal(typeof rollup.body.data.score, 'number', 'a fleet score, not null');

    const o = await overview(svc!, creds);
    assert.deepEqual(o.rollup.score, rollup.body.data.score, "the console's overview shows the same score");
    assert.equal(evaluationsIn(o), 1);
  });

  it('does not evaluate them again on a later start', async () => {
    await svc!.stop('SIGTERM');
    svc = await startService({ DATA_DIR: dataDir, BOOTSTRAP_DEMO: 'true' });
    assert.deepEqual(firstStartEvaluations(svc.output), [], svc.output);
    assert.equal(evaluationsIn(await overview(svc, creds)), 1);
    // A graceful stop drains every evaluation that start began, so the next start counts all of them.
    await svc.stop('SIGTERM');
    svc = await startService({ DATA_DIR: dataDir, BOOTSTRAP_DEMO: 'true' });
    const o = await overview(svc, creds);
    assert.equal(evaluationsIn(o), 1, 'still the one evaluation of the first start');
    assert.equal(o.rollup.scenarios_evaluated, creds.scenario_ids.length);
  });
});

describe('BOOTSTRAP_DEMO=false', () => {
  it('starts on an empty DATA_DIR without a demo organization or an evaluation', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gov-no-demo-'));
    try {
      const svc = await startService({ DATA_DIR: join(root, 'data'), BOOTSTRAP_DEMO: 'false' });
      await svc.stop('SIGTERM');
      assert.ok(!svc.output.includes('First start'), svc.output);
      assert.equal(existsSync(join(root, 'data', 'bootstrap.json')), false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
