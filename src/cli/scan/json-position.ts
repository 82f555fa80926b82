/** @module cli/scan/json-position: where a text stops being JSON (RFC 8259), as a 1-based line and column. */

/** A place in a text: 1-based line and column (the column counted in UTF-16 code units, as editors do). */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** Thrown inside `errorOffset` only: the offset of the first character that cannot continue the JSON text. */
class Stop extends Error {
  constructor(readonly at: number) {
    super(`JSON stops at offset ${at}`);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]$/;
const LITERALS = ['true', 'false', 'null'] as const;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * The offset of the first character that makes `text` invalid JSON (its length when the text ends
 * too early), or `undefined` when it is valid. V8's `JSON.parse` message gives a position for most
 * errors but not for an unexpected token (`Unexpected token '}', "..." is not valid JSON`), hence
 * this scanner. It points at the start of a bad token (`tru`, `'a'`), at a bad character inside a
 * string, and at the first character after a number that is not allowed there.
 * @throws RangeError for nesting deeper than the call stack (the caller falls back to V8's position).
 */
export function errorOffset(text: string): number | undefined {
  let i = 0;
  const stop = (): never => {
    throw new Stop(i);
  };
  const ws = (): void => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const string = (): void => {
    i++; // the opening quote
    for (;;) {
      const c = text[i];
      if (c === undefined || c < ' ') stop();
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!HEX.test(text[i] ?? '')) stop();
        } else if (ESCAPES.has(text[i] ?? '')) i++;
        else stop();
      } else i++;
    }
  };
  /** `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`, stopping where a digit is missing, as V8 does. */
  const number = (): void => {
    const digits = (): void => {
      if (!isDigit(text[i])) stop();
      while (isDigit(text[i])) i++;
    };
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const list = (close: '}' | ']', item: () => void): void => {
    i++; // the opening bracket
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ',') stop();
      i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{')
      return list('}', () => {
        ws();
        if (text[i] !== '"') stop();
        string();
        ws();
        if (text[i] !== ':') stop();
        i++;
        value();
      });
    if (c === '[') return list(']', value);
    if (c === '"') return string();
    if (c === '-' || isDigit(text[i])) return number();
    const literal = LITERALS.find((l) => text.startsWith(l, i));
    if (!literal) stop();
    i += literal!.length;
  };
  try {
    value();
    ws();
    if (i < text.length) stop();
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return err.at;
    throw err;
  }
}

/** The 1-based line and column of `offset` in `text` (lines end at `\n`; a `\r` before it ends the line too). */
export function positionOf(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastNewline };
}

/**
 * Where `text`, which `JSON.parse` refused with `message`, goes wrong. The scanner's offset first;
 * V8's `at position N` when the scanner cannot tell (nesting too deep); else the end of the text.
 */
export function jsonErrorPosition(text: string, message: string): TextPosition {
  let offset: number | undefined;
  try {
    offset = errorOffset(text);
  } catch {
    offset = undefined;
  }
  const v8 = /at position (\d+)/.exec(message);
  return positionOf(text, offset ?? (v8 ? Number(v8[1]) : text.length));
}
