/** HashingGate: the bound on concurrent sign-in password verifications of one process (issue 31, item 2). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { HashingGate } from '../../src/server/console/hashing-gate.js';

it('lets `limit` verifications in at once, refuses the next at once, and takes each slot back once', () => {
  const gate = new HashingGate(2);
  const first = gate.tryEnter();
  const second = gate.tryEnter();
  assert.ok(first && second);
  assert.equal(gate.tryEnter(), null, 'full: refused, not queued');
  assert.equal(gate.running, 2);
  first();
  first(); // a second release of the same slot frees nothing more
  assert.equal(gate.running, 1);
  const third = gate.tryEnter();
  assert.ok(third);
  assert.equal(gate.tryEnter(), null);
  second();
  third();
  assert.equal(gate.running, 0);
});
