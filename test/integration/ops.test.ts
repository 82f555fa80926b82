/** The operators' listener: health, readiness, metrics only there (never on the public port), bounded labels, worker measurements in the main registry. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importScenario } from '../../src/actors/scenarios.js';
import { pollEvaluation, send } from '../../src/client/client.js';
import type { Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { CLUSTER_DASHBOARDS } from '../../src/ops/cluster-panels.js';
import { DASHBOARDS } from '../../src/ops/panels.js';
import { buildDashboard, SCHEMA_VERSION } from '../../src/ops/grafana.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf } from '../helpers/assertions.js';

describe('operations endpoints', () => {
  let t: TestServer;
  const ops = (path: string) => send(new URL(`http://127.0.0.1:${t.server.opsPort}${path}`), 'GET', {}, '');
  before(async () => {
    t = await startTestServer();
    // An unverified webhook that posts the caller's text to the channel the caller names: SEC-5 high (a relay).
    await importScenario(
      t.server.store.scenarios,
      t.orgId,
      'o1',
      JSON.stringify(
        bp([
          m(1, 'gateway:CustomWebHook'),
          m(2, 'slack:CreateMessage', { mapper: { channel: '{{1.channel}}', text: '{{1.x}}' } }),
        ]),
      ),
    );
  });
  after(() => t.close());

  it('answers /healthz and /readyz', async () => {
    assert.equal((await ops('/healthz')).status, 200);
    const ready = await ops('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', checks: { store: 'ok', pool: 'ok', shutdown: 'ok' } });
  });

  it("serves /metrics only on the operators' listener", async () => {
    // The public listener has no /metrics; like every path there it first asks for a key (no route enumeration without one).
    const onPublic = await send(new URL('/metrics', t.baseUrl), 'GET', {}, '');
    assert.equal(onPublic.status, 401);
    assert.doesNotMatch(onPublic.raw, /# HELP/);
    assert.equal((await ops('/metrics')).status, 200);
  });

  it("publishes gov_build_info 1 with the package version, the checkout's git commit and the Node.js version", async () => {
    const text = (await ops('/metrics')).raw;
    const lines = text.split('\n').filter((l) => l.startsWith('gov_build_info{'));
    assert.equal(
      lines.length,
      1,
      text
        .split('\n')
        .filter((l) => l.includes('gov_build_info'))
        .join('\n'),
    );
    const m2 = /^gov_build_info\{version="([^"]*)",revision="([^"]*)",node_version="([^"]*)"\} (\S+)$/.exec(lines[0]!);
    assert.ok(m2, lines[0]);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    assert.equal(m2[1], pkg.version);
    // This checkout is a git worktree: `.git` is a file naming its git dir, the branch ref lives in the common dir.
    const head = spawnSync('git', ['rev-parse', 'HEAD'], {
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      encoding: 'utf8',
    });
    assert.equal(head.status, 0, head.stderr);
    assert.equal(m2[2], process.env['GIT_REVISION'] || head.stdout.trim());
    assert.equal(m2[3], process.version);
    assert.equal(m2[4], '1');
    assert.match(text, /^# TYPE gov_build_info gauge$/m);
  });

  it('counts requests, refusals, evaluations, worker measurements and tokens, with bounded labels', async () => {
    const submit = dataOf(
      await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ['o1'] }),
    );
    await pollEvaluation(t.client, submit.evaluation_id, { delaysMs: [50], timeoutMs: 20_000 });
    await t.client.call('POST', '/results/fetch', { result_token: submit.result_token });
    await send(new URL('/api/public/v1/governance/policies', t.baseUrl), 'GET', {}, '');
    const text = (await ops('/metrics')).raw;
    const value = (line: RegExp) =>
      Number(
        text
          .split('\n')
          .find((l) => line.test(l))
          ?.split(' ')
          .pop(),
      );
    assert.ok(value(/^gov_http_requests_total\{route="\/evaluate",method="POST",status_class="2xx"\}/) >= 1);
    // Two unsigned calls without a key in this file: /metrics on the public listener above, and the catalog here.
    assert.equal(
      value(/^gov_http_rejections_total\{status="401",reason="missing_or_invalid_authorization_header"\}/),
      2,
    );
    assert.equal(value(/^gov_evaluation_batches_total\{kind="stored"\}/), 1);
    assert.equal(value(/^gov_scenarios_evaluated_total\{outcome="ok"\}/), 1);
    assert.ok(
      value(/^gov_scenario_evaluation_seconds_count/) >= 1,
      "the worker's own measurement reached the main registry",
    );
    assert.ok(value(/^gov_violations_total\{category="SEC",severity="high"\}/) >= 1);
    assert.equal(value(/^gov_result_tokens_redeemed_total/), 1);
    assert.ok(value(/^gov_store_records\{table="scenarios"\}/) >= 1);
    assert.ok(/^process_resident_memory_bytes /m.test(text), 'default process metrics');
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((x) => x[1]!);
    for (const v of labelValues) {
      assert.doesNotMatch(v, /[0-9a-f]{8}-[0-9a-f]{4}-|^key_|^gov_live_|^wm_|^o1$/, `an id leaked into a label: ${v}`);
    }
  });

  it('gives every dashboard $datasource and $instance, schemaVersion 39 (Grafana 11.1), and the instance filter on every query', () => {
    const compose = ['docker-compose.yml', 'docker-compose.cluster.yml'].map((f) =>
      readFileSync(fileURLToPath(new URL(`../../../${f}`, import.meta.url)), 'utf8'),
    );
    // The schema version is the one the pinned Grafana writes: move both together.
    for (const c of compose) assert.match(c, /image: grafana\/grafana:11\.1\.0\n/);
    assert.equal(SCHEMA_VERSION, 39);
    const files = [
      ...DASHBOARDS.map((spec) => ({ spec, dir: 'grafana/dashboards' })),
      ...CLUSTER_DASHBOARDS.map((spec) => ({ spec, dir: 'deploy/grafana/dashboards' })),
    ];
    let targets = 0;
    for (const { spec, dir } of files) {
      interface Target {
        readonly expr: string;
        readonly datasource: unknown;
      }
      interface Dashboard {
        readonly schemaVersion: number;
        readonly templating: { readonly list: readonly Record<string, unknown>[] };
        readonly panels: readonly {
          readonly type: string;
          readonly datasource?: unknown;
          readonly targets?: Target[];
        }[];
      }
      const d = JSON.parse(
        readFileSync(fileURLToPath(new URL(`../../../${dir}/${spec.uid}.json`, import.meta.url)), 'utf8'),
      ) as Dashboard;
      assert.equal(d.schemaVersion, 39, spec.uid);
      const vars = new Map(d.templating.list.map((v) => [v['name'], v]));
      assert.deepEqual([...vars.keys()], ['datasource', 'instance'], spec.uid);
      assert.equal(vars.get('datasource')!['type'], 'datasource');
      assert.equal(vars.get('datasource')!['query'], 'prometheus');
      const instance = vars.get('instance')!;
      assert.equal(instance['type'], 'query');
      assert.equal(instance['query'], 'label_values(gov_build_info, instance)');
      assert.deepEqual(instance['datasource'], { type: 'prometheus', uid: '${datasource}' });
      assert.equal(instance['multi'], true);
      assert.equal(instance['includeAll'], true);
      const ds = { type: 'prometheus', uid: '${datasource}' };
      const specQueries = spec.rows.flatMap((r) => r.panels.flatMap((p) => p.queries.map((q) => q.expr)));
      const built = d.panels.filter((p) => p.type !== 'row');
      assert.equal(built.length, spec.rows.flatMap((r) => r.panels).length, spec.uid);
      const exprs: string[] = [];
      for (const p of built) {
        assert.deepEqual(p.datasource, ds, `${spec.uid}: panel data source`);
        for (const t of p.targets ?? []) {
          assert.deepEqual(t.datasource, ds, `${spec.uid}: ${t.expr}`);
          exprs.push(t.expr);
        }
      }
      assert.equal(exprs.length, specQueries.length, spec.uid);
      exprs.forEach((expr, i) => {
        targets++;
        // Every metric name of the panel's PromQL (the service's metrics, Node's and `up`) now selects on $instance.
        const names = [...specQueries[i]!.matchAll(/\b(?:gov|nodejs|process)_\w+|\bup\b/g)].length;
        assert.ok(names > 0, specQueries[i]);
        assert.equal(expr.split('{instance=~"$instance"').length - 1, names, `${spec.uid}: ${expr}`);
        assert.equal(
          expr.replaceAll('instance=~"$instance",', '').replaceAll('{instance=~"$instance"}', ''),
          specQueries[i],
        );
      });
    }
    assert.ok(targets >= 60, `${targets} queries`);
  });

  it('keeps the committed Grafana dashboards in step with src/ops/panels.ts and cluster-panels.ts (run `npm run grafana:build`)', () => {
    const committed = [
      ...DASHBOARDS.map((spec) => ({ spec, dir: 'grafana/dashboards' })),
      ...CLUSTER_DASHBOARDS.map((spec) => ({ spec, dir: 'deploy/grafana/dashboards' })),
    ];
    for (const { spec, dir } of committed) {
      const file = fileURLToPath(new URL(`../../../${dir}/${spec.uid}.json`, import.meta.url));
      assert.deepEqual(
        JSON.parse(readFileSync(file, 'utf8')),
        JSON.parse(JSON.stringify(buildDashboard(spec))),
        `${spec.uid}.json is stale`,
      );
    }
  });
});

describe('LMDB map gauges', () => {
  const MAP = 32 * 1024 * 1024;
  let t: TestServer;
  const gauge = async (name: string): Promise<number> => {
    const text = (await send(new URL(`http://127.0.0.1:${t.server.opsPort}/metrics`), 'GET', {}, '')).raw;
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    assert.ok(line, `${name} is exported`);
    return Number(line.split(' ').pop());
  };
  before(async () => {
    t = await startTestServer({ env: { LMDB_MAP_SIZE: String(MAP) } });
  });
  after(() => t.close());

  it('exports the map size set by LMDB_MAP_SIZE and the bytes in use, read at each scrape', async () => {
    assert.equal(await gauge('gov_store_map_size_bytes'), MAP);
    const before = await gauge('gov_store_used_bytes');
    assert.ok(before > 0 && before < MAP, String(before));
    // About 1 MB of blueprints: the used pages must grow by at least that much.
    const big = JSON.stringify(bp([m(1, 'util:SetVariable2', { mapper: { value: 'x'.repeat(200_000) } })]));
    for (let i = 0; i < 5; i++) await importScenario(t.server.store.scenarios, t.orgId, `big-${i}`, big);
    await t.server.store.flushed();
    const after = await gauge('gov_store_used_bytes');
    assert.ok(after - before >= 900_000, `${before} → ${after}`);
    assert.ok(after / (await gauge('gov_store_map_size_bytes')) < 0.8);
  });
});
