/** The buffered log output (src/server/log-destination.ts LogWriter), with an injected write(2). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LOG_BACKLOG_MAX_BYTES, LogWriter } from '../../src/server/log-destination.js';

/** A fake output: records what was written; `refuse` makes it answer EAGAIN, `max` caps one write. */
function output() {
  const o = {
    written: '',
    calls: 0,
    refuse: false,
    max: Infinity,
    write: (_fd: number, data: Buffer, offset: number, length: number): number => {
      o.calls++;
      if (o.refuse) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable'), { code: 'EAGAIN' });
      const n = Math.min(length, o.max);
      o.written += data.subarray(offset, offset + n).toString();
      return n;
    },
  };
  return o;
}

describe('LogWriter', () => {
  it('writes nothing until its buffer is full or flushed, then everything in order with one write per buffer', () => {
    const o = output();
    const w = new LogWriter(1, 1024, o.write);
    const lines = Array.from({ length: 40 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(40)}"}\n`);
    for (const l of lines.slice(0, 10)) w.line(l);
    assert.equal(o.calls, 0, 'buffered');
    for (const l of lines.slice(10)) w.line(l);
    assert.ok(o.calls >= 1 && o.calls <= 3, `a few writes, not one per line: ${o.calls}`);
    w.flush();
    assert.equal(o.written, lines.join(''));
  });

  it('keeps lines the output refuses (EAGAIN) and writes them at the next flush; completes partial writes', () => {
    const o = output();
    const w = new LogWriter(1, 256, o.write);
    o.refuse = true;
    w.line('{"a":"é"}\n');
    w.flush();
    assert.equal(o.written, '');
    o.refuse = false;
    o.max = 3;
    w.line('{"b":2}\n');
    w.flush();
    assert.equal(o.written, '{"a":"é"}\n{"b":2}\n');
  });

  it('writes a line longer than its buffer on its own, after the lines before it', () => {
    const o = output();
    const w = new LogWriter(1, 64, o.write);
    w.line('{"first":1}\n');
    const long = `{"long":"${'y'.repeat(500)}"}\n`;
    w.line(long);
    w.line('{"last":1}\n');
    w.flush();
    assert.equal(o.written, `{"first":1}\n${long}{"last":1}\n`);
  });

  it('drops the oldest lines beyond its backlog bound while the output refuses, and says so when it drains', () => {
    const o = output();
    const w = new LogWriter(1, 64 * 1024, o.write);
    o.refuse = true;
    const line = `{"pad":"${'z'.repeat(1000)}"}\n`;
    for (let i = 0; i < (LOG_BACKLOG_MAX_BYTES / line.length) * 1.5; i++) w.line(line);
    w.flush();
    o.refuse = false;
    w.flush();
    assert.ok(o.written.length <= LOG_BACKLOG_MAX_BYTES + 1000, String(o.written.length));
    const last = o.written.trimEnd().split('\n').pop()!;
    assert.match((JSON.parse(last) as { msg: string }).msg, /^log output could not keep up: dropped \d+ bytes/);
  });

  it('writes every line once and in order, whatever the lines (multi-byte, longer than the buffer), buffer size and flush points', () => {
    const line = fc
      .tuple(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.boolean())
      .map(([text, flushAfter]) => ({ text: `${JSON.stringify({ t: text })}\n`, flushAfter }));
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 2048 }), fc.array(line, { maxLength: 60 }), (size, lines) => {
        const o = output();
        const w = new LogWriter(1, size, o.write);
        for (const l of lines) {
          w.line(l.text);
          if (l.flushAfter) w.flush();
        }
        w.flush();
        assert.equal(o.written, lines.map((l) => l.text).join(''));
      }),
      { numRuns: 200, seed: 20261126 },
    );
  });

  it('keeps the order of lines written as text and lines encoded in place (reserve, commit), at any buffer size', () => {
    const line = fc
      .tuple(fc.string({ unit: 'grapheme', maxLength: 120 }), fc.boolean(), fc.nat({ max: 64 }))
      .map(([text, inPlace, slack]) => ({ text: `${JSON.stringify({ t: text })}\n`, inPlace, slack }));
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 2048 }), fc.array(line, { maxLength: 60 }), (size, lines) => {
        const o = output();
        const w = new LogWriter(1, size, o.write);
        for (const l of lines) {
          const bytes = Buffer.from(l.text);
          const into = l.inPlace ? w.reserve(bytes.length + l.slack) : null;
          if (into === null) {
            assert.ok(!l.inPlace || bytes.length + l.slack > size, 'refused only beyond the buffer');
            w.line(l.text);
            continue;
          }
          assert.ok(w.offset + bytes.length + l.slack <= size, 'room for what was reserved');
          into.set(bytes, w.offset);
          w.commit(w.offset + bytes.length);
        }
        w.flush();
        assert.equal(o.written, lines.map((l) => l.text).join(''));
      }),
      { numRuns: 300, seed: 20261127 },
    );
  });

  it('forgets its lines when the output is gone (EPIPE) instead of throwing', () => {
    const w = new LogWriter(1, 64, () => {
      throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    });
    w.line('{"a":1}\n');
    assert.doesNotThrow(() => w.flush());
  });
});
