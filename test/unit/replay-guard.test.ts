/** Replay refusal (design notes "Request signature"): refused before and after the store write commits, memory held only until it does. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { ReplayGuard } from '../../src/server/pipeline/replay-guard.js';

it('refuses a repeated signature while its write is in flight and after it committed, in this and in another guard', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-replay-'));
  const store = openStore(dir);
  try {
    const guard = new ReplayGuard(store.replay, 300);
    const now = 1_800_000_000;
    const sig = (i: number) => i.toString(16).padStart(64, '0');
    assert.equal(guard.accept(sig(1), now, now), true);
    assert.equal(guard.accept(sig(1), now, now), false, 'refused from memory before the write committed');
    assert.equal(guard.accept(sig(1), now - 1, now), true, 'the signing time is part of the identity');
    for (let i = 2; i < 1_000; i++) assert.equal(guard.accept(sig(i), now, now), true);
    const other = new ReplayGuard(store.replay, 300);
    assert.equal(other.accept(sig(2), now, now), true, 'another process sees it only once its batch is written');
    await guard.flush();
    await other.flush();
    assert.equal(guard.uncommittedCount, 0, 'memory is released once the writes committed');
    assert.equal(guard.accept(sig(1), now, now), false, 'refused from the store after the write committed');
    assert.equal(
      new ReplayGuard(store.replay, 300).accept(sig(500), now, now + 10),
      false,
      'another process (guard) refuses it too',
    );
    // Once t + tolerance has passed, the next sweep removes the entries (the timestamp check refuses such requests anyway).
    const later = new ReplayGuard(store.replay, 300);
    assert.equal(later.accept(sig(5_000), now + 301, now + 301), true);
    await later.flush();
    await store.flushed();
    assert.equal(await store.replay.has(sig(5_000), now + 301), true, 'live entries stay');
    assert.equal(await store.replay.has(sig(3), now), false, 'expired entries are swept');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps a signature signed exactly `tolerance` seconds ago, which the timestamp check still accepts, through a sweep', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-replay-'));
  const store = openStore(dir);
  try {
    const tolerance = 300;
    const t = 1_800_000_000;
    const sig = 'ab'.repeat(32); // keys of 77 units: stored as raw UTF-8, unlike the sweep's 13-unit bound
    const first = new ReplayGuard(store.replay, tolerance);
    assert.equal(first.accept(sig, t, t), true);
    await first.flush();
    // Another process sweeps on its first accept, at the last second of the window...
    const second = new ReplayGuard(store.replay, tolerance);
    assert.equal(second.accept('cd'.repeat(32), t + 1, t + tolerance), true);
    await second.flush(); // committed after the sweep's transaction
    await store.flushed();
    // ...and then sees the replay, still inside the window.
    assert.equal(second.accept(sig, t, t + tolerance), false, 'a replay inside the window is refused');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
