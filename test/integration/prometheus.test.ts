/**
 * A real Prometheus on loopback scrapes a real server under a short load: every PromQL expression of
 * every dashboard panel and every alert returns data, and promtool accepts the rules and the config.
 * Prometheus comes from Debian's package (scripts/ensure-prometheus.sh installs it when absent); when
 * it cannot be installed the test fails, saying why (never skipped). Panel queries are run as the
 * dashboards hold them, with `$instance` set to All.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation, send } from '../../src/client/client.js';
import type { Reply, StoredSubmitResult, SubmitResult } from '../../src/client/responses.js';
import { DASHBOARDS } from '../../src/ops/panels.js';
import { buildDashboard } from '../../src/ops/grafana.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver } from '../helpers/receiver.js';
import { bp, breakHandler, m } from '../helpers/blueprints.js';
import { dataOf } from '../helpers/assertions.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULES = join(ROOT, 'grafana/prometheus/alerts.yml');

const ensure = spawnSync('bash', [join(ROOT, 'scripts/ensure-prometheus.sh')], { encoding: 'utf8' });
const available = ensure.status === 0;

/** What `query` reads of a Prometheus HTTP API instant-query answer (`GET /api/v1/query`). */
interface PromQueryResponse {
  readonly data: { readonly result: unknown[] };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Alert expressions compare against thresholds; to check they see data, every threshold becomes "any value". */
function alertDataExpr(expr: string): string {
  return expr.replace(/\s(>=|<=|==|!=|>|<)\s*-?[0-9.]+(e[+-]?\d+)?/g, ' >= -1e300');
}

describe('Prometheus, dashboards and alerts', () => {
  it('Prometheus is installed (scripts/ensure-prometheus.sh: Debian package prometheus)', () => {
    assert.ok(
      available,
      `Prometheus is required and could not be installed: ${ensure.stdout.trim() || ensure.stderr.trim()}`,
    );
  });

  let t: TestServer;
  let prom: ChildProcess;
  let promUrl: string;
  let dir: string;
  const query = async (expr: string) => {
    const res = await send<PromQueryResponse>(
      new URL(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`),
      'GET',
      {},
      '',
    );
    assert.equal(res.status, 200, `${expr}: ${res.raw}`);
    return res.body.data.result;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gov-prom-'));
    // Without Prometheus the first case fails and says why; the others fail for want of it.
    if (!available) return;
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_BASE_MS: '100' } });
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - ${RULES}\nscrape_configs:\n  - job_name: gov\n    static_configs:\n      - targets: ['127.0.0.1:${t.server.opsPort}']\n`,
    );
    prom = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      const up = await send(new URL(`${promUrl}/-/ready`), 'GET', {}, '').catch(() => null);
      if (up?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  after(async () => {
    prom?.kill('SIGTERM');
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('promtool accepts the alert rules and the scrape configuration', () => {
    const rules = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    assert.equal(rules.status, 0, rules.stdout + rules.stderr);
    const config = spawnSync(
      'promtool',
      ['check', 'config', '--syntax-only', join(ROOT, 'grafana/prometheus/prometheus.yml')],
      { encoding: 'utf8' },
    );
    assert.equal(config.status, 0, config.stdout + config.stderr);
  });

  it('every dashboard panel and every alert expression returns data from a real scrape', async () => {
    // Prometheus applies static targets after its discovery throttle (about 5 s): wait until the service is scraped.
    let scraped = false;
    for (let i = 0; i < 150 && !scraped; i++) {
      scraped = (await query('up{job="gov"} == 1')).length > 0;
      if (!scraped) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(scraped, 'Prometheus scrapes the service');
    // A short, mixed load that touches every metric family.
    await importScenario(
      t.server.store.scenarios,
      t.orgId,
      'p1',
      JSON.stringify(
        bp([
          m(1, 'gateway:CustomWebHook'),
          m(2, 'http:MakeRequest', {
            version: 4,
            mapper: { url: 'http://x.example.com', method: 'post' },
            onerror: breakHandler(9),
          }),
        ]),
      ),
    );
    const receiver = await startReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
    assert.equal((await t.client.call('POST', '/webhooks', { url: receiver.url })).status, 201);
    const limited = await t.server.keys.createKey(t.orgId, { perMinute: 2 });
    const limitedClient = new GovernanceClient(t.baseUrl, {
      apiKey: limited.api_key,
      signingSecret: limited.signing_secret,
    });
    const load = async (round: number) => {
      const submit = dataOf(
        await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['p1'], round }),
      );
      await pollEvaluation(t.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
      await t.client.call('POST', '/results/fetch', { result_token: submit.result_token });
      await t.client.call('POST', '/results/fetch', { result_token: submit.result_token, again: round });
      const eph = dataOf(
        await t.client.call<Reply<SubmitResult>>('POST', '/evaluate', {
          blueprints: [bp([m(1, 'util:SetVariable2')])],
          round,
        }),
      );
      await pollEvaluation(t.client, eph.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
      await t.client.call('POST', '/evaluate/inline', {
        blueprint: bp([m(1, 'openai-gpt-3:CreateCompletion', { mapper: { messages: [] } })]),
        round,
      });
      await t.client.call('GET', '/governance/policies');
      await t.client.call('GET', `/scenarios/p1/results?r=${round}`);
      await send(new URL('/api/public/v1/governance/policies', t.baseUrl), 'GET', {}, '');
      for (let i = 0; i < 3; i++) await limitedClient.call('GET', `/governance/policies?r=${round}&i=${i}`);
    };
    for (let round = 0; round < 6; round++) {
      await load(round);
      await new Promise((r) => setTimeout(r, 700));
    }
    await receiver.close();
    // As the dashboards hold them: with the instance filter, `$instance` = All (its allValue).
    const exprs = DASHBOARDS.flatMap((d) =>
      (
        buildDashboard(d) as {
          panels: { title?: string; targets?: { expr: string }[] }[];
        }
      ).panels.flatMap((p) =>
        (p.targets ?? []).map((t) => ({ where: `${d.uid} / ${p.title}`, expr: t.expr.replaceAll('$instance', '.*') })),
      ),
    );
    const alerts = [...readFileSync(RULES, 'utf8').matchAll(/- alert: (\w+)\n\s+expr: (.+)/g)].map((m2) => ({
      where: `alert ${m2[1]}`,
      expr: alertDataExpr(m2[2]!),
    }));
    assert.ok(exprs.length >= 30 && alerts.length >= 6, `${exprs.length} panel queries, ${alerts.length} alerts`);
    const empty: string[] = [];
    for (const { where, expr } of [...exprs, ...alerts])
      if ((await query(expr)).length === 0) empty.push(`${where}: ${expr}`);
    assert.deepEqual(empty, [], `expressions without data:\n${empty.join('\n')}`);
  });
});
