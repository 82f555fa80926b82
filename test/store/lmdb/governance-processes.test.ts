/** GovernanceRepository on LMDB across processes (issue 17): claims, rule numbers and settings versions stay exactly-once with three processes writing at once. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { WaiverRecord } from '../../../src/model/records.js';
import { LmdbStore } from '../../../src/store/lmdb/store.js';

const run = promisify(execFile);
const STORE_MODULE = new URL('../../../src/store/lmdb/store.js', import.meta.url).href;
const T0 = Date.UTC(2026, 10, 22, 10, 0);
const WAIVERS = 30;

const waiver = (i: number): WaiverRecord => ({
  waiver_id: `wvr_${i}`,
  org_id: 'org_1',
  scenario_id: 's1',
  policy: 'SEC-1',
  fingerprint: null,
  module_id: null,
  reason: 'accepted',
  approver: null,
  expires_at: new Date(T0 + 1_000 + i).toISOString(),
  created_at: new Date(T0).toISOString(),
  created_by: 'system',
  status: 'active',
  revoked_at: null,
  audit: [],
});

describe('LMDB governance across processes', () => {
  let dir: string;
  let store: LmdbStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gov-governance-'));
    store = new LmdbStore(dir);
    for (let i = 0; i < WAIVERS; i++) assert.equal(await store.governance.createWaiver(waiver(i), 0, 100, T0), true);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands each due waiver to exactly one of three processes, numbers rules apart and lets one settings put win', async () => {
    const child = `
      const { LmdbStore } = await import(${JSON.stringify(STORE_MODULE)});
      const store = new LmdbStore(${JSON.stringify(dir)});
      const g = store.governance;
      await new Promise((r) => setTimeout(r, ${Date.now() + 1_500} - Date.now()));
      const entry = { at: 'now', actor: 'system', action: 'expired', detail: String(process.pid) };
      const [claims, rules, put] = await Promise.all([
        Promise.all(Array.from({ length: ${WAIVERS} }, (_, i) => g.claimDue('expiry', 'org_1', 'wvr_' + i, entry))),
        Promise.all(Array.from({ length: 10 }, () => g.createRule('org_1', {}, 'now', 'system', 25))),
        g.putSettings('org_1', 0, { disabled_policies: [], severity_overrides: {}, parameters: {} }, 'now', 'system'),
      ]);
      await store.close();
      process.stdout.write(JSON.stringify({
        claimed: claims.flatMap((c, i) => (c ? [i] : [])),
        codes: rules.flatMap((r) => (r.ok ? [r.record.code] : [])),
        put: put.ok,
      }));`;
    // The children start at one agreed time, so their transactions overlap.
    const outs = await Promise.all([0, 1, 2].map(() => run(process.execPath, ['--input-type=module', '-e', child])));
    const results = outs.map((o) => JSON.parse(o.stdout) as { claimed: number[]; codes: string[]; put: boolean });
    const claimed = results.flatMap((r) => r.claimed).sort((a, b) => a - b);
    assert.deepEqual(
      claimed,
      Array.from({ length: WAIVERS }, (_, i) => i),
      'each waiver claimed exactly once',
    );
    const codes = results.flatMap((r) => r.codes);
    assert.equal(codes.length, 25);
    assert.equal(new Set(codes).size, 25, 'no code handed out twice');
    assert.equal(results.filter((r) => r.put).length, 1);
    assert.equal(store.governance.rulesRevision('org_1'), 25);
    assert.deepEqual(store.governance.dueWaivers('expiry', T0 + 10_000, 100), []);
    for (let i = 0; i < WAIVERS; i++) assert.equal(store.governance.getWaiver('org_1', `wvr_${i}`)?.audit.length, 1);
  });
});
