/** Mapping references (engine/blueprint/expressions.ts): paths read a run at a time give what the per-character reading gave. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractRefs, type FieldRef } from '../../src/engine/blueprint/expressions.js';

/** The former reader, one character at a time: the reference the new one is held to. */
function referenceRefs(text: string): FieldRef[] {
  const STOP = new Set([
    ' ',
    ';',
    ')',
    '(',
    '}',
    '{',
    ',',
    '+',
    '*',
    '/',
    '=',
    '<',
    '>',
    '!',
    '&',
    '|',
    '"',
    "'",
    '\t',
    '\n',
    '\r',
  ]);
  const isDigit = (c: number) => c >= 48 && c <= 57;
  const joins = (c: number) =>
    isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 96 || c === 93;
  const readPath = (s: string, start: number, end: number): [string, number] => {
    let i = start;
    let path = '';
    while (i < end) {
      const ch = s[i]!;
      if (ch === '`') {
        const q = s.indexOf('`', i + 1);
        const stop = q < 0 || q > end ? end : q;
        path += s.slice(i + 1, stop);
        i = stop + 1;
        continue;
      }
      if (ch === '[') {
        const q = s.indexOf(']', i + 1);
        if (q < 0 || q > end) break;
        path += /^\d*$/.test(s.slice(i + 1, q)) ? '[]' : '';
        i = q + 1;
        continue;
      }
      if (STOP.has(ch)) break;
      path += ch;
      i++;
    }
    return [path.replace(/\.+$/, ''), i];
  };
  const refs: FieldRef[] = [];
  for (let from = 0; ;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close;
    for (let i = open + 2; i < end;) {
      if (text[i] === '"') {
        const q = text.indexOf('"', i + 1);
        i = q < 0 || q > end ? end : q + 1;
        continue;
      }
      if (isDigit(text.charCodeAt(i)) && !(i > open + 2 && joins(text.charCodeAt(i - 1)))) {
        let j = i;
        while (j < end && isDigit(text.charCodeAt(j))) j++;
        if (text[j] === '.' && j + 1 < end) {
          const [path, next] = readPath(text, j + 1, end);
          if (path !== '') refs.push({ moduleId: text.slice(i, j), path });
          i = next;
          continue;
        }
        i = j;
        continue;
      }
      i++;
    }
    from = end + 2;
  }
  return refs;
}

it('reads paths with backticks, brackets and trailing dots', () => {
  assert.deepEqual(
    extractRefs('{{2.choices[].message.content}} {{3.`Full Name`.x}} {{4.a[1].b..}} {{lower(1.email)}}'),
    [
      { moduleId: '2', path: 'choices[].message.content' },
      { moduleId: '3', path: 'Full Name.x' },
      { moduleId: '4', path: 'a[].b' },
      { moduleId: '1', path: 'email' },
    ],
  );
});

it('equals the per-character reader on any expression', () => {
  const piece = fc.constantFrom(
    '{{',
    '}}',
    '1.',
    '23.',
    'a',
    'Z',
    '.',
    '`',
    '[',
    ']',
    '0',
    ' ',
    ';',
    '(',
    ')',
    '"',
    'é',
    '_',
    '-',
    '\n',
    'x y',
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 20 }).map((p) => p.join('')),
      (s) => assert.deepEqual(extractRefs(s), referenceRefs(s)),
    ),
    { numRuns: 20000 },
  );
  fc.assert(fc.property(fc.string(), (s) => assert.deepEqual(extractRefs(`{{1.${s}}}`), referenceRefs(`{{1.${s}}}`))));
});
