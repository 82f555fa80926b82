/** The pool's waiting lanes: FIFO per lane, interactive first, a bulk task after every streak. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { INTERACTIVE_STREAK, Lanes } from '../../src/actors/lanes.js';

const drain = (lanes: Lanes<string>): string[] => {
  const out: string[] = [];
  for (let x = lanes.shift(); x !== undefined; x = lanes.shift()) out.push(x);
  return out;
};

it('takes interactive tasks first, FIFO, and lets the oldest bulk task through after a streak', () => {
  const lanes = new Lanes<string>();
  for (let i = 0; i < 3; i++) lanes.push('bulk', `b${i}`);
  for (let i = 0; i < 2 * INTERACTIVE_STREAK + 1; i++) lanes.push('interactive', `i${i}`);
  assert.equal(lanes.size, 2 * INTERACTIVE_STREAK + 4);
  const streak = (from: number) => Array.from({ length: INTERACTIVE_STREAK }, (_, k) => `i${from + k}`);
  assert.deepEqual(drain(lanes), [
    ...streak(0),
    'b0',
    ...streak(INTERACTIVE_STREAK),
    'b1',
    `i${2 * INTERACTIVE_STREAK}`,
    'b2',
  ]);
  assert.equal(lanes.size, 0);
});

it('counts a streak only while a bulk task waits', () => {
  const lanes = new Lanes<string>();
  for (let i = 0; i < 10; i++) lanes.push('interactive', `i${i}`);
  for (let i = 0; i < 10; i++) lanes.shift(); // no bulk task waited: no streak builds up
  lanes.push('bulk', 'b0');
  lanes.push('interactive', 'late');
  assert.deepEqual(drain(lanes), ['late', 'b0']);
});

it('clears both lanes', () => {
  const lanes = new Lanes<string>();
  lanes.push('bulk', 'b');
  lanes.push('interactive', 'i');
  assert.deepEqual(lanes.clear().sort(), ['b', 'i']);
  assert.equal(lanes.shift(), undefined);
});

it('takes only interactive items while bulk may not start, and the held bulk item still counts for the streak', () => {
  const lanes = new Lanes<string>();
  lanes.push('bulk', 'b0');
  assert.equal(lanes.shift(false), undefined, 'a lone bulk item stays while bulk may not start');
  assert.equal(lanes.size, 1);
  for (let i = 0; i < INTERACTIVE_STREAK + 1; i++) lanes.push('interactive', `i${i}`);
  const taken = Array.from({ length: INTERACTIVE_STREAK + 1 }, () => lanes.shift(false));
  assert.deepEqual(
    taken,
    Array.from({ length: INTERACTIVE_STREAK + 1 }, (_, i) => `i${i}`),
  );
  lanes.push('interactive', 'late');
  assert.equal(lanes.shift(true), 'b0', 'once bulk may start, the streak built while it was held lets it go first');
  assert.equal(lanes.shift(true), 'late');
  assert.equal(lanes.bulkSize, 0);
});
