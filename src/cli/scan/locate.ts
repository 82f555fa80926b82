/**
 * @module cli/scan/locate: RFC 6901 JSON Pointer → line and column in the JSON text, for SARIF regions.
 * A single forward scan that skips values it does not need (linear in the text size).
 */

/** 1-based line and column of the value a pointer designates, or null when absent. */
export function locatePointer(text: string, pointer: string): { line: number; column: number } | null {
  const tokens =
    pointer === ''
      ? []
      : pointer
          .split('/')
          .slice(1)
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let i = skipWs(text, 0);
  for (const token of tokens) {
    const ch = text[i];
    if (ch === '{') {
      i = skipWs(text, i + 1);
      let found = false;
      while (text[i] === '"') {
        const [key, afterKey] = readString(text, i);
        i = skipWs(text, afterKey);
        if (text[i] !== ':') return null;
        i = skipWs(text, i + 1);
        if (key === token) {
          found = true;
          break;
        }
        i = skipWs(text, skipValue(text, i));
        if (text[i] === ',') i = skipWs(text, i + 1);
      }
      if (!found) return null;
    } else if (ch === '[') {
      const index = Number(token);
      if (!/^\d+$/.test(token)) return null;
      i = skipWs(text, i + 1);
      for (let k = 0; k < index; k++) {
        if (text[i] === ']') return null;
        i = skipWs(text, skipValue(text, i));
        if (text[i] !== ',') return null;
        i = skipWs(text, i + 1);
      }
      if (text[i] === ']') return null;
    } else {
      return null;
    }
  }
  return lineColumn(text, i);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let k = 0; k < offset; k++)
    if (text.charCodeAt(k) === 10) {
      line++;
      last = k;
    }
  return { line, column: offset - last };
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++;
  return i;
}

function readString(s: string, i: number): [string, number] {
  let j = i + 1;
  while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
  return [JSON.parse(s.slice(i, j + 1)) as string, j + 1];
}

function skipValue(s: string, i: number): number {
  const ch = s[i];
  if (ch === '"') return readString(s, i)[1];
  if (ch === '{' || ch === '[') {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const c = s[j];
      if (c === '"') {
        j = readString(s, j)[1] - 1;
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return s.length;
  }
  let j = i;
  while (j < s.length && !',}] \n\r\t'.includes(s[j]!)) j++;
  return j;
}
