/** Bounded memoisation: computes once per key (null results included) and never holds more than its limit. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { boundedMemo } from '../../src/engine/memo.js';

it('computes each key once, caches null results, and starts over when full', () => {
  const calls: string[] = [];
  const f = boundedMemo<string | null>(3, (key) => {
    calls.push(key);
    return key === 'none' ? null : key.toUpperCase();
  });
  assert.equal(f('a'), 'A');
  assert.equal(f('a'), 'A');
  assert.equal(f('none'), null);
  assert.equal(f('none'), null);
  assert.deepEqual(calls, ['a', 'none']);
  f('b');
  f('c'); // the fourth key empties the cache first
  assert.equal(f('a'), 'A');
  assert.deepEqual(calls, ['a', 'none', 'b', 'c', 'a']);
});
