/** `gov scan`'s JSON error locator: the offset V8 reports wherever it reports one, a line and column for the others. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorOffset, jsonErrorPosition, positionOf } from '../../src/cli/scan/json-position.js';

/** Texts V8 refuses with `at position N` (Node 20): the scanner must agree with it on every one. */
const WITH_V8_POSITION = [
  '{"a":1,}',
  '{"a" 1}',
  '{"a":1',
  '{"a":"x\n"}',
  '[1 2]',
  '{"a":1}x',
  '{a:1}',
  "{'a':1}",
  '{"a":01}',
  '{"a":-}',
  '{"a":"\\q"}',
  '[1.]',
  '[1.e5]',
  '[1e]',
  '[1e+]',
  '[-a]',
  '["\\u12"]',
  '{"a":1}}',
  '{\n  "flow": [\n    {"id": 1 "module": "x"}\n  ]\n}',
];

function v8Offset(text: string): number {
  try {
    JSON.parse(text);
  } catch (err) {
    const m = /at position (\d+)/.exec((err as Error).message);
    if (m) return Number(m[1]);
  }
  throw new Error(`V8 gives no position for ${JSON.stringify(text)}`);
}

describe('errorOffset', () => {
  it('agrees with the position V8 reports', () => {
    for (const text of WITH_V8_POSITION) assert.equal(errorOffset(text), v8Offset(text), JSON.stringify(text));
  });

  it('points at the start of a token V8 only quotes (`Unexpected token`), and at the end of a truncated text', () => {
    assert.equal(errorOffset('{"a":}'), 5);
    assert.equal(errorOffset('{"a":tru}'), 5);
    assert.equal(errorOffset('[1,]'), 3);
    assert.equal(errorOffset(''), 0);
    assert.equal(errorOffset('{"flow": ['), 10);
  });

  it('finds nothing in valid JSON', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e+3, "\\u00e9\\n", true, false, null, {}]} ', '0', '"x"'])
      assert.equal(errorOffset(text), undefined, text);
  });
});

describe('jsonErrorPosition', () => {
  it('gives a 1-based line and column, CRLF line ends included', () => {
    const text = '{\n  "flow": [\n    ,\n  ]\n}\n';
    assert.deepEqual(jsonErrorPosition(text, 'Unexpected token'), { line: 3, column: 5 });
    assert.deepEqual(jsonErrorPosition(text.replaceAll('\n', '\r\n'), 'Unexpected token'), { line: 3, column: 5 });
    assert.deepEqual(positionOf('abc', 0), { line: 1, column: 1 });
  });

  it("falls back to V8's position when nesting is deeper than the scanner's stack", () => {
    const deep = `${'['.repeat(200_000)}x`;
    assert.deepEqual(jsonErrorPosition(deep, 'Unexpected token in JSON at position 7'), { line: 1, column: 8 });
  });
});
