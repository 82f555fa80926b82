/** bench/lib/profile-components and profile-doc: samples charged to components, tables kept in docs/performance.md. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addTimes, componentTimes, frameComponent, perUnit, type Profile } from '../../bench/lib/profile-components.js';
import { keptSection, PROFILE_HEADING, replaceProfileBlock } from '../../bench/lib/profile-doc.js';

const DIST = 'file:///repo/dist/src/';
const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0 },
  children,
});

/**
 * root → runStages (server/app) → checkSignature (pipeline/signature) → hmac (auth/hmac-sha256)
 *                                                                     → a native `writeUtf8String`
 *      → (garbage collector), (idle), (program)
 *      → onFinished (compose/access-log) → writeSync (node:fs)
 *      → getBinaryFast (node_modules/lmdb)
 */
const PROFILE: Profile = {
  nodes: [
    frame(1, '(root)', '', [2, 7, 8, 9, 10, 12]),
    frame(2, 'runStages', `${DIST}server/app.js`, [3]),
    frame(3, 'checkSignature', `${DIST}server/pipeline/signature.js`, [4, 5]),
    frame(4, 'compress', `${DIST}server/auth/hmac-sha256.js`),
    frame(5, 'writeUtf8String', ''),
    frame(7, '(garbage collector)', ''),
    frame(8, '(idle)', ''),
    frame(9, '(program)', ''),
    frame(10, 'onFinished', `${DIST}server/compose/access-log.js`, [11]),
    frame(11, 'writeSync', 'node:fs'),
    frame(12, 'getBinaryFast', 'file:///repo/node_modules/lmdb/read.js'),
  ],
  startTime: 1_000,
  endTime: 2_000,
  // One sample per node, 10 µs apart (sample i is taken at 1000 + 10·(i+1)).
  samples: [2, 4, 5, 7, 8, 9, 11, 12],
  timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10],
};

describe('profile components', () => {
  it('knows our files, their packages and GC by themselves, and leaves built-ins to their callers', () => {
    assert.equal(frameComponent('compress', `${DIST}server/auth/hmac-sha256.js`), 'signature and replay');
    assert.equal(frameComponent('x', `${DIST}store/lmdb/results.js`), 'store');
    assert.equal(frameComponent('x', `${DIST}store/rate-limits/lmdb.js`), 'rate limits');
    assert.equal(frameComponent('x', `${DIST}engine/policies/sec-1.js`), 'engine');
    assert.equal(frameComponent('x', `${DIST}actors/pool.js`), 'pool hand-off');
    assert.equal(frameComponent('x', `${DIST}api/views/scenario-results.js`), 'rendering');
    assert.equal(frameComponent('x', `${DIST}api/requests.js`), 'parse and validation');
    assert.equal(frameComponent('x', `${DIST}actors/evaluations.js`), 'evaluation lifecycle');
    assert.equal(frameComponent('x', 'file:///r/node_modules/prom-client/lib/counter.js'), 'metrics');
    assert.equal(frameComponent('(garbage collector)', ''), 'garbage collection');
    assert.equal(frameComponent('writeUtf8String', ''), undefined);
    assert.equal(frameComponent('write', 'node:buffer'), undefined);
  });

  it('charges each busy sample to the innermost frame with a component, and skips idle ones', () => {
    const t = componentTimes(PROFILE);
    assert.equal(t.busyUs, 70); // 8 samples, one idle
    assert.deepEqual(Object.fromEntries(t.byComponent), {
      'routing and pipeline': 10,
      'signature and replay': 20, // compress, and the native called by checkSignature
      'garbage collection': 10,
      other: 10, // (program)
      logging: 10, // node:fs under onFinished
      store: 10,
    });
  });

  it('counts only the samples inside the window', () => {
    const t = componentTimes(PROFILE, 1_015, 1_035); // samples at 1020 and 1030
    assert.equal(t.busyUs, 20);
    assert.deepEqual(Object.fromEntries(t.byComponent), { 'signature and replay': 20 });
  });

  it('spreads a thread’s measured CPU per unit over the components by their shares', () => {
    const both = addTimes([componentTimes(PROFILE), componentTimes(PROFILE)]);
    assert.equal(both.busyUs, 140);
    const us = perUnit(both, 14); // 14 µs per request over 140 µs sampled
    assert.equal(us.get('signature and replay'), 4);
    assert.equal(us.get('store'), 2);
    assert.equal(us.get('engine'), 0);
    const sum = [...us.values()].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 14) < 1e-9);
  });
});

describe('profile tables in docs/performance.md', () => {
  const doc = '# Performance\n\n| scenario | target |\n|---|---|\n';

  it('adds the section and a block, then replaces the block in place', () => {
    const once = replaceProfileBlock(doc, 'reads:before', '| a | 1 |');
    assert.ok(once.startsWith(doc.trimEnd()));
    assert.match(
      once,
      /## Where the time goes\n\n<!-- profile:reads:before -->\n\| a \| 1 \|\n<!-- \/profile:reads:before -->\n$/,
    );
    const twice = replaceProfileBlock(replaceProfileBlock(once, 'reads:after', 'X'), 'reads:before', '| a | 2 |');
    assert.equal(twice.split(PROFILE_HEADING).length, 2);
    assert.ok(!twice.includes('| a | 1 |'));
    assert.ok(twice.indexOf('| a | 2 |') < twice.indexOf('X'), 'the replaced block keeps its place');
  });

  it('gives bench/run the section to keep, or nothing', () => {
    assert.equal(keptSection(doc), '');
    const withBlock = replaceProfileBlock(doc, 'inline:after', 'T');
    assert.ok(keptSection(withBlock).startsWith(PROFILE_HEADING));
    assert.ok(keptSection(withBlock).endsWith('<!-- /profile:inline:after -->'));
  });
});
