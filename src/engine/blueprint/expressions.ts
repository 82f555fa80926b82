/**
 * @module engine/blueprint/expressions: references inside Make mapping expressions.
 * `{{1.email}}`, `{{2.items[].name}}`, `{{lower(1.email)}}`, ``{{3.`Full Name`}}``,
 * `{{if(4.ok; 5.a; 6.b)}}`: each `<moduleId>.<path>` inside `{{ }}` is a reference to the output
 * field `path` of module `moduleId` (Make documentation "Mapping"). Linear scan, no regex backtracking.
 */

/** A reference from an expression to a field of an earlier module's output. */
export interface FieldRef {
  /** Id of the referenced module (`"1"`). */
  readonly moduleId: string;
  /** Field path, normalised: `email`, `items[].name`, `Full Name`. */
  readonly path: string;
}

const PATH_STOP = new Set([
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

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** Characters that, before a digit, make it part of a name or number rather than a module id (`\w . \` ]`). */
const joinsPrevious = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 96 || c === 93;

/** Extracts every module-field reference of a string (empty when it has no `{{`). */
export function extractRefs(text: string): FieldRef[] {
  const refs: FieldRef[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close;
    scanExpression(text, open + 2, end, refs);
    from = end + 2;
  }
  return refs;
}

function scanExpression(s: string, start: number, end: number, out: FieldRef[]): void {
  let i = start;
  while (i < end) {
    const ch = s[i]!;
    if (ch === '"') {
      // skip string literals
      const q = s.indexOf('"', i + 1);
      i = q < 0 || q > end ? end : q + 1;
      continue;
    }
    if (isDigit(s.charCodeAt(i)) && !(i > start && joinsPrevious(s.charCodeAt(i - 1)))) {
      let j = i;
      while (j < end && isDigit(s.charCodeAt(j))) j++;
      if (s[j] === '.' && j + 1 < end) {
        const [path, next] = readPath(s, j + 1, end);
        if (path !== '') out.push({ moduleId: s.slice(i, j), path });
        i = next;
        continue;
      }
      i = j;
      continue;
    }
    i++;
  }
}

/** Characters that end a path outside backticks and brackets, by char code (ASCII only). */
const PATH_STOP_CODE: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const c of PATH_STOP) t[c.charCodeAt(0)] = 1;
  return t;
})();

/**
 * Reads a field path (`a.b[].c`, `` `Full Name`.x ``); returns it normalised and the index after it.
 * Plain characters are copied a run at a time (`slice`), not one by one: per-character `+=` built a
 * chain of string pieces per path, on every mapping of every evaluation.
 */
function readPath(s: string, start: number, end: number): [string, number] {
  let i = start;
  let path = '';
  let run = start;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === 96) {
      // `
      const q = s.indexOf('`', i + 1);
      const stop = q < 0 || q > end ? end : q;
      path += s.slice(run, i) + s.slice(i + 1, stop);
      i = stop + 1;
      run = i;
      continue;
    }
    if (c === 91) {
      // [
      const q = s.indexOf(']', i + 1);
      if (q < 0 || q > end) break;
      path += s.slice(run, i) + (/^\d*$/.test(s.slice(i + 1, q)) ? '[]' : '');
      i = q + 1;
      run = i;
      continue;
    }
    if (c < 128 && PATH_STOP_CODE[c] === 1) break;
    i++;
  }
  if (run < i) path += s.slice(run, i);
  return [path.charCodeAt(path.length - 1) === 46 ? path.replace(/\.+$/, '') : path, i];
}
