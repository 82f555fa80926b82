/**
 * Issue 13, item 10: `admin rollup rebuild` and `admin scenarios list` see every scenario whatever the
 * length of its id (1-128 characters, `ws-<uuid>` workspace copies among them), and the rebuilt rollup
 * equals the one the server maintained incrementally.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { importScenario } from '../../src/actors/scenarios.js';
import { rollupView } from '../../src/api/views/rollup.js';
import { pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, Reply, StoredSubmitResult } from '../../src/client/responses.js';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, type AdminCommand, type AdminOutput, type InlineSaved, type RollupView } from './bodies.js';

const ADMIN = fileURLToPath(new URL('../../src/cli/admin.js', import.meta.url));
/** Characters a scenario id may hold (SCENARIO_ID_PATTERN), 1- to 4-byte UTF-8. */
const CHARS = [...'abcXYZ0189-_.~!@$*', 'é', '中', '😀'];
/** Random lengths 1-128, plus the lengths around the boundaries (an org id, U+0000 and 27 ids make 64). */
const IDS = [
  ...new Set([
    ...fc
      .sample(
        fc
          .integer({ min: 1, max: 128 })
          .chain((n) => fc.array(fc.constantFrom(...CHARS), { minLength: n, maxLength: n })),
        { seed: 13_10, numRuns: 40 },
      )
      .map((chars) =>
        chars
          .join('')
          .slice(0, 128)
          .replace(/[\ud800-\udbff]$/, 'a'),
      ),
    ...[1, 26, 27, 28, 63, 64, 127, 128].map((n) => `len-${n}-`.padEnd(n, 'x').slice(0, n)),
  ]),
];

describe('rollup rebuild and scenario listing with ids of 1-128 characters', () => {
  let t: TestServer;
  let dataDir: string;
  let workspaceId: string;
  /** Runs `admin <command> ...args --json` and resolves the JSON object it prints. */
  const admin = <C extends AdminCommand>(command: C, ...args: string[]) =>
    new Promise<AdminOutput[C]>((resolve, reject) => {
      const all = [...command.split(' '), ...args];
      execFile(
        process.execPath,
        [ADMIN, ...all, '--json'],
        { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir }, timeout: 30_000 },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`admin ${all.join(' ')}: ${stderr}`));
          else resolve(JSON.parse(stdout) as AdminOutput[C]);
        },
      );
    });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gov-rebuild-'));
    t = await startTestServer({ dataDir });
    const examples = exampleBlueprints();
    for (const [i, id] of IDS.entries())
      await importScenario(t.server.store.scenarios, t.orgId, id, JSON.stringify(variant(i, examples)));
    const other = await t.addOrg('Neighbour');
    await importScenario(
      t.server.store.scenarios,
      other.orgId,
      'theirs-'.padEnd(100, 'y'),
      JSON.stringify(variant(0, examples)),
    );
    const saved = await t.client.call<Reply<InlineSaved>>('POST', '/evaluate/inline', {
      blueprint: variant(7, examples),
      save_to_workspace: true,
    });
    assert.equal(saved.status, 200, saved.raw);
    const copy = dataOf(saved).saved;
    assert.ok(copy, 'saved to the workspace');
    workspaceId = copy.scenario_id;
    assert.match(workspaceId, /^ws-[0-9a-f-]{36}$/);
    const all = [...IDS, workspaceId];
    for (let i = 0; i < all.length; i += 10) {
      const submit = await t.client.call<Reply<StoredSubmitResult>>('POST', '/evaluate', {
        scenario_ids: all.slice(i, i + 10),
      });
      assert.equal(submit.status, 200, submit.raw);
      await pollEvaluation<Reply<EvaluationStatus>>(t.client, dataOf(submit).evaluation_id, {
        delaysMs: [50, 100],
        timeoutMs: 60_000,
      });
    }
    await t.server.store.flushed();
  });
  after(() => t.close());

  it('rebuilds the same rollup the server maintained incrementally', async () => {
    const res = await t.client.call<Reply<RollupView>>('GET', '/organization/rollup');
    assert.equal(res.status, 200, res.raw);
    const { updated_at: _a, ...incremental } = dataOf(res);
    assert.equal(incremental.scenarios_total, IDS.length + 1);
    assert.equal(incremental.scenarios_evaluated, IDS.length + 1);
    const { updated_at: _b, ...rebuilt } = rollupView(await t.server.store.results.computeRollup(t.orgId, 'x'));
    assert.deepEqual(rebuilt, incremental);
    const { updated_at: _c, ...fromCli } = await admin('rollup rebuild', '--org', t.orgId);
    assert.deepEqual(fromCli, incremental, '`admin rollup rebuild` agrees');
  });

  it('lists every scenario, the workspace copy included, in `admin scenarios list`', async () => {
    const want = [...IDS, workspaceId].sort();
    assert.deepEqual((await t.server.store.scenarios.list(t.orgId)).map((s) => s.scenario_id).sort(), want);
    assert.deepEqual(
      (await admin('scenarios list', '--org', t.orgId)).scenarios.map((s) => s.scenario_id).sort(),
      want,
    );
  });
});
