/** The hand-written access log line (src/server/compose/access-line.ts) is byte for byte what pino writes for the same fields. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import {
  ACCESS_INFO,
  ACCESS_WARN,
  accessBindings,
  accessLineMaxBytes,
  accessLineOf,
  encodeAccessLine,
  formatAccessLine,
  methodRouteSegment,
  tailSegment,
  type AccessLine,
} from '../../src/server/compose/access-line.js';

const TIME = 1_795_000_000_123;

/** What pino writes for `logger[level](line, msg)`, with its default bindings and a fixed time. */
function pinoLine(level: 'info' | 'warn', line: AccessLine, msg: string): string {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  const logger = pino({ level: 'info', timestamp: () => `,"time":${TIME}` }, sink);
  logger[level](line, msg);
  return out;
}

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('a"b', 'a\\b', 'line\nbreak', '\u2028', 'é'),
);
const lineArb: fc.Arbitrary<AccessLine> = fc
  .record({
    request_id: fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), anyString),
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE'), anyString),
    route: fc.option(fc.oneof(fc.constantFrom('/evaluations/{id}', '/evaluate'), anyString), { nil: null }),
    status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: null }),
    aborted: fc.boolean(),
    duration_ms: fc.oneof(
      fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 1000),
      fc.double({ min: 0, max: 1e6, noNaN: true }),
    ),
    bytes_in: fc.nat(),
    key_id: fc.option(anyString, { nil: null }),
    org_id: fc.option(anyString, { nil: null }),
    watermark: fc.option(anyString, { nil: null }),
    trace_id: optional(fc.stringMatching(/^[0-9a-f]{32}$/)),
    span_id: optional(fc.stringMatching(/^[0-9a-f]{16}$/)),
    reason: optional(fc.oneof(fc.constantFrom('replay', 'key_revoked'), anyString)),
  })
  .map((r) => {
    // Absent optional fields are absent keys, as the access log builds them (trace first, then reason).
    const line: AccessLine = {
      request_id: r.request_id,
      method: r.method,
      route: r.route,
      status: r.status,
      aborted: r.aborted,
      duration_ms: r.duration_ms,
      bytes_in: r.bytes_in,
      key_id: r.key_id,
      org_id: r.org_id,
      watermark: r.watermark,
    };
    if (r.trace_id !== undefined && r.span_id !== undefined) {
      line.trace_id = r.trace_id;
      line.span_id = r.span_id;
    }
    if (r.reason !== undefined) line.reason = r.reason;
    return line;
  });

describe('formatAccessLine', () => {
  const bindings = accessBindings(process.pid, hostname());

  it('writes what pino writes, for any field values (escaping included)', () => {
    fc.assert(
      fc.property(lineArb, fc.boolean(), (line, warn) => {
        const msg = warn ? 'request refused' : 'request';
        assert.equal(
          formatAccessLine(warn ? ACCESS_WARN : ACCESS_INFO, TIME, bindings, line, msg),
          pinoLine(warn ? 'warn' : 'info', line, msg),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('writes one parseable JSON line with every field', () => {
    const line: AccessLine = {
      request_id: 'r"1',
      method: 'GET',
      route: '/evaluations/{id}',
      status: 200,
      aborted: false,
      duration_ms: 0.125,
      bytes_in: 0,
      key_id: 'k1',
      org_id: null,
      watermark: null,
    };
    const text = formatAccessLine(ACCESS_INFO, TIME, bindings, line, 'request');
    assert.ok(text.endsWith('}\n') && !text.slice(0, -1).includes('\n'));
    assert.deepEqual(JSON.parse(text), {
      level: 30,
      time: TIME,
      pid: process.pid,
      hostname: hostname(),
      ...line,
      msg: 'request',
    });
  });
});

describe('encodeAccessLine', () => {
  const bindings = accessBindings(process.pid, hostname());
  /** A number as the access log may get it: integers, thousandths, any double, and the odd ones. */
  const number = fc.oneof(
    fc.nat(),
    fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => n / 1000),
    fc.double({ noNaN: false }),
    fc.constantFrom(0, -0, 1e21, 2 ** 53, 2 ** 53 + 2, 1_795_000_000_123, 999_999_999, 1_000_000_000, -1),
  );

  it('writes the bytes of accessLineOf for the same values, or refuses (-1) a request id JSON would escape', () => {
    fc.assert(
      fc.property(
        lineArb,
        fc.boolean(),
        fc.oneof(fc.constant(TIME), fc.nat(), number),
        number,
        number,
        fc.nat({ max: 40 }),
        (line, warn, time, durationMs, bytesIn, offset) => {
          const level = warn ? ACCESS_WARN : ACCESS_INFO;
          const methodRoute = methodRouteSegment(line.method, line.route);
          const tail = tailSegment(line, warn ? 'request refused' : 'request');
          const [b, m, t] = [bindings, methodRoute, tail].map((s) => Buffer.from(s)) as [Buffer, Buffer, Buffer];
          const into = Buffer.alloc(offset + accessLineMaxBytes(b, line.request_id, m, t), 0xff);
          const end = encodeAccessLine(
            into,
            offset,
            level,
            time,
            b,
            line.request_id,
            m,
            line.status,
            line.aborted,
            durationMs,
            bytesIn,
            t,
          );
          const expected = accessLineOf(
            level,
            time,
            bindings,
            line.request_id,
            methodRoute,
            line.status,
            line.aborted,
            durationMs,
            bytesIn,
            tail,
          );
          const plain = /^[\x20-\x7e]*$/.test(line.request_id) && !/["\\]/.test(line.request_id);
          if (!plain) {
            assert.equal(end, -1);
            return;
          }
          // accessLineOf quotes a plain id as it is; JSON.stringify would give the same literal.
          assert.equal(into.subarray(offset, end).toString(), expected);
          assert.ok(
            into.subarray(0, offset).every((x) => x === 0xff),
            'nothing written before the offset',
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('writes a line JSON.parse reads back with the values given', () => {
    const b = Buffer.from(bindings);
    const m = Buffer.from(methodRouteSegment('GET', '/evaluations/{id}'));
    const t = Buffer.from(tailSegment({ key_id: 'key_1', org_id: 'org_1', watermark: null }, 'request'));
    const into = Buffer.alloc(accessLineMaxBytes(b, 'req-1', m, t));
    const end = encodeAccessLine(into, 0, ACCESS_INFO, TIME, b, 'req-1', m, 200, true, 12.05, 1761, t);
    assert.deepEqual(JSON.parse(into.subarray(0, end).toString()), {
      level: 30,
      time: TIME,
      pid: process.pid,
      hostname: hostname(),
      request_id: 'req-1',
      method: 'GET',
      route: '/evaluations/{id}',
      status: 200,
      aborted: true,
      duration_ms: 12.05,
      bytes_in: 1761,
      key_id: 'key_1',
      org_id: 'org_1',
      watermark: null,
      msg: 'request',
    });
  });
});
