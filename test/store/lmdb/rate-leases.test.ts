/** The store's rate-limit leases (design notes "Rate limits"): grants within the limit, also from several processes at once; old windows removed. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LmdbRateLeases } from '../../../src/store/rate-limits/lmdb.js';

const run = promisify(execFile);
const LMDB_MODULE = new URL('../../../src/store/rate-limits/lmdb.js', import.meta.url).href;
/** A minute id (2026-11-22 10:00 UTC). */
const W = Date.UTC(2026, 10, 22, 10, 0) / 60_000;

describe('LMDB rate leases', () => {
  let dir: string;
  let leases: LmdbRateLeases;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-leases-'));
    leases = new LmdbRateLeases(join(dir, 'rate.mdb'));
  });
  after(async () => {
    await leases.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants what is asked while the limit allows, then the rest, then nothing; a lowered limit grants nothing', () => {
    assert.deepEqual(leases.take('k1', 'minute', W, 8, 20), { granted: 8, leased: 8 });
    assert.deepEqual(leases.take('k1', 'minute', W, 8, 20), { granted: 8, leased: 16 });
    assert.deepEqual(leases.take('k1', 'minute', W, 8, 20), { granted: 4, leased: 20 });
    assert.deepEqual(leases.take('k1', 'minute', W, 1, 20), { granted: 0, leased: 20 });
    assert.deepEqual(leases.take('k1', 'minute', W, 1, 10), { granted: 0, leased: 20 });
    assert.equal(leases.leased('k1', 'hour', Math.floor(W / 60)), 0, 'the hour is counted apart');
    assert.equal(leases.leased('k2', 'minute', W), 0, 'and every key apart');
  });

  it('gives released budget back to its window only', () => {
    leases.take('k3', 'minute', W, 10, 60);
    leases.release('k3', 'minute', W, 4);
    assert.equal(leases.leased('k3', 'minute', W), 6);
    leases.release('k3', 'minute', W - 5, 4);
    assert.equal(leases.leased('k3', 'minute', W - 5), 0, 'nothing is created for a window without leases');
  });

  it('removes the windows before the previous one at the first grant of a window; a clock stepped back uses its own window', () => {
    for (const w of [W, W + 1, W + 2]) leases.take('k4', 'minute', w, 5, 60);
    assert.equal(leases.leased('k4', 'minute', W), 0, 'removed');
    assert.equal(leases.leased('k4', 'minute', W + 1), 5, 'the previous window stays (a process may be finishing it)');
    assert.equal(leases.leased('k4', 'minute', W + 2), 5);
    assert.deepEqual(
      leases.take('k4', 'minute', W + 1, 5, 60),
      { granted: 5, leased: 10 },
      'an earlier window still grants',
    );
    leases.take('k4', 'minute', W + 40, 5, 60);
    assert.equal(leases.leased('k4', 'minute', W + 2), 0, 'an idle key keeps no old windows');
  });

  it('never grants more than the limit to three processes taking one at a time concurrently', async () => {
    const limit = 1_500;
    const child = `
      const { LmdbRateLeases } = await import(${JSON.stringify(LMDB_MODULE)});
      const leases = new LmdbRateLeases(${JSON.stringify(join(dir, 'rate.mdb'))});
      await new Promise((r) => setTimeout(r, ${Date.now() + 1_000} - Date.now()));
      let granted = 0;
      for (let i = 0; i < 1000; i++) granted += leases.take('one-key', 'minute', ${W}, 1, ${limit}).granted;
      await leases.close();
      process.stdout.write(String(granted));`;
    // The children start taking at one agreed time, so their transactions overlap.
    const outs = await Promise.all([0, 1, 2].map(() => run(process.execPath, ['--input-type=module', '-e', child])));
    const grants = outs.map((o) => Number(o.stdout));
    assert.equal(
      grants.reduce((a, b) => a + b, 0),
      limit,
      `grants ${grants.join(' + ')}`,
    );
    assert.equal(leases.leased('one-key', 'minute', W), limit);
  });
});
