/** @module engine/rules/char-set: sets of characters a regular expression atom can match (ASCII exactly, the rest as one flag). */

/** Characters: a bitmap of the 128 ASCII code points plus whether any non-ASCII character belongs. */
export interface CharSet {
  readonly bits: Uint32Array;
  readonly other: boolean;
}

/** The empty set. */
export function none(): CharSet {
  return { bits: new Uint32Array(4), other: false };
}

/** Every character. */
export function every(): CharSet {
  return { bits: new Uint32Array([~0, ~0, ~0, ~0]), other: true };
}

/** The code points `from` to `to` (inclusive); a range reaching past ASCII sets `other`. */
export function range(from: number, to: number): CharSet {
  const bits = new Uint32Array(4);
  for (let c = from; c <= Math.min(to, 127); c++) bits[c >> 5]! |= 1 << (c & 31);
  return { bits, other: to > 127 };
}

/** One code point. */
export function char(code: number): CharSet {
  return range(code, code);
}

/** `a ∪ b`. */
export function union(a: CharSet, b: CharSet): CharSet {
  return { bits: a.bits.map((w, i) => w | b.bits[i]!), other: a.other || b.other };
}

/** The complement; non-ASCII characters are taken as belonging (they cannot all be excluded by an ASCII class). */
export function complement(a: CharSet): CharSet {
  return { bits: a.bits.map((w) => ~w), other: true };
}

/** True when some character is in both. */
export function intersects(a: CharSet, b: CharSet): boolean {
  return (a.other && b.other) || a.bits.some((w, i) => (w & b.bits[i]!) !== 0);
}

const DIGIT = range(48, 57);
const WORD = [range(48, 57), range(65, 90), range(97, 122), char(95)].reduce(union);
const SPACE = { ...[range(9, 13), char(32)].reduce(union), other: true };

/** `\d \D \w \W \s \S` classes (without the `u` or `i` flag); `undefined` for any other letter. */
export function classEscape(letter: string): CharSet | undefined {
  switch (letter) {
    case 'd':
      return DIGIT;
    case 'D':
      return complement(DIGIT);
    case 'w':
      return WORD;
    case 'W':
      return complement(WORD);
    case 's':
      return SPACE;
    case 'S':
      return complement(SPACE);
    default:
      return undefined;
  }
}

/** `.`: everything but line terminators. */
export const DOT: CharSet = {
  bits: every().bits.map((w, i) => (i === 0 ? w & ~((1 << 10) | (1 << 13)) : w)),
  other: true,
};
