/** The pool's per-organization queue (issue 31): the organization running the fewest tasks goes first, round-robin among equals, each one's own lanes in order. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from '../../src/actors/fair-queue.js';
import { INTERACTIVE_STREAK } from '../../src/actors/lanes.js';

/** Dispatches everything with one worker: each task finishes before the next starts (nothing runs between shifts). */
function drain(q: FairQueue<string>): string[] {
  const out: string[] = [];
  for (let next = q.shift(() => 0); next; next = q.shift(() => 0)) out.push(next.item);
  return out;
}

it("serves organizations in turn: one organization's flood does not hold another's task behind it", () => {
  const q = new FairQueue<string>();
  for (let i = 0; i < 5; i++) q.push('a', 'interactive', `a${i}`);
  q.push('b', 'interactive', 'b0');
  q.push('b', 'interactive', 'b1');
  q.push('c', 'bulk', 'c0');
  assert.equal(q.size, 8);
  assert.equal(q.tenantCount, 3);
  assert.deepEqual(drain(q), ['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3', 'a4']);
  assert.equal(q.size, 0);
  assert.equal(q.tenantCount, 0);
});

it('gives a free worker to the organization running the fewest tasks', () => {
  const q = new FairQueue<string>();
  q.push('a', 'interactive', 'a0');
  q.push('b', 'interactive', 'b0');
  const running = new Map([
    ['a', 3],
    ['b', 1],
  ]);
  assert.deepEqual(
    q.shift((t) => running.get(t) ?? 0),
    { tenant: 'b', item: 'b0' },
  );
  assert.deepEqual(
    q.shift((t) => running.get(t) ?? 0),
    { tenant: 'a', item: 'a0' },
  );
  assert.equal(
    q.shift(() => 0),
    undefined,
  );
});

it("keeps each organization's own order: FIFO per lane, interactive first, a bulk task after a streak", () => {
  const q = new FairQueue<string>();
  q.push('a', 'bulk', 'ab0');
  for (let i = 0; i <= INTERACTIVE_STREAK; i++) q.push('a', 'interactive', `ai${i}`);
  const streak = Array.from({ length: INTERACTIVE_STREAK }, (_, i) => `ai${i}`);
  assert.deepEqual(drain(q), [...streak, 'ab0', `ai${INTERACTIVE_STREAK}`]);
});

it('lets only interactive tasks go while bulk may not start, from any organization that has one', () => {
  const q = new FairQueue<string>();
  q.push('a', 'bulk', 'ab0');
  q.push('b', 'bulk', 'bb0');
  q.push('b', 'interactive', 'bi0');
  assert.equal(q.bulkSize, 2);
  assert.deepEqual(
    q.shift(() => 0, false),
    { tenant: 'b', item: 'bi0' },
  );
  assert.equal(
    q.shift(() => 0, false),
    undefined,
    'only bulk tasks wait',
  );
  assert.equal(q.size, 2);
  assert.deepEqual(drain(q), ['ab0', 'bb0']);
  assert.equal(q.bulkSize, 0);
});

it('clears every organization', () => {
  const q = new FairQueue<string>();
  q.push('a', 'bulk', 'x');
  q.push('b', 'interactive', 'y');
  assert.deepEqual(q.clear().sort(), ['x', 'y']);
  assert.equal(q.size, 0);
  assert.equal(q.bulkSize, 0);
  assert.equal(
    q.shift(() => 0),
    undefined,
  );
});
