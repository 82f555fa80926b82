/** X-Request-Id validation and W3C traceparent parsing (https://www.w3.org/TR/trace-context/ §3.2). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptRequestId, formatTraceparent, parseTraceparent } from '../../src/model/trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('X-Request-Id', () => {
  it('accepts 1-128 characters of A-Z a-z 0-9 . _ : -', () => {
    for (const ok of ['a', 'x'.repeat(128), '550e8400-e29b-41d4-a716-446655440000', 'Root:1-abc.def_g'])
      assert.equal(acceptRequestId(ok), ok);
  });
  it('refuses anything else (then an id is generated)', () => {
    for (const bad of [undefined, '', 'x'.repeat(129), 'a b', 'a,b', 'a\r\nset-cookie: x', 'ü', 'a/b'])
      assert.equal(acceptRequestId(bad), null, String(bad));
  });
});

describe('traceparent', () => {
  it('parses a version-00 header and opens a new span', () => {
    const t = parseTraceparent(`00-${TRACE}-${PARENT}-01`);
    assert.ok(t);
    assert.equal(t.traceId, TRACE);
    assert.equal(t.parentId, PARENT);
    assert.equal(t.flags, '01');
    assert.match(t.spanId, /^[0-9a-f]{16}$/);
    assert.notEqual(t.spanId, PARENT);
    assert.equal(formatTraceparent(t.traceId, t.spanId, t.flags), `00-${TRACE}-${t.spanId}-01`);
  });
  it('parses the first four fields of a higher version, which may carry more', () => {
    assert.equal(parseTraceparent(`01-${TRACE}-${PARENT}-00-more`)?.traceId, TRACE);
    assert.equal(parseTraceparent(`cc-${TRACE}-${PARENT}-09`)?.flags, '09');
  });
  it('refuses invalid headers', () => {
    for (const bad of [
      `ff-${TRACE}-${PARENT}-01`,
      `00-${'0'.repeat(32)}-${PARENT}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE.toUpperCase()}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}-01-extra`,
      `00-${TRACE}-${PARENT}-1`,
      `00-${TRACE.slice(1)}-${PARENT}-01`,
      `0-${TRACE}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}`,
      `00-${TRACE}-${PARENT}-01, 00-${TRACE}-${PARENT}-01`,
      '',
    ])
      assert.equal(parseTraceparent(bad), null, bad);
  });
});
