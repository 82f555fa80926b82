/** @module store/lmdb/ranges: range scans over `k(...)` keys that see both of lmdb-js's string key encodings. */
import type { Database, RangeOptions } from 'lmdb';
import { k } from './tables.js';

/**
 * lmdb-js writes string keys with ordered-binary (`writeKey` in node_modules/ordered-binary/index.js):
 * a string shorter than this many UTF-16 units char by char, each char U+0000-U+0004 escaped as two
 * bytes `04 <c>` (so the U+0000 of `k(...)` becomes `04 00`); a string of this length or more as raw
 * UTF-8 (U+0000 stays `00`). Either form keeps code point order among keys of that form, but the two
 * forms interleave in byte order, so one pair of bounds cannot cover `org\0…` keys of both lengths.
 */
export const RAW_KEY_MIN_UNITS = 64;

/** Options of a scan. */
export interface ScanOptions {
  /** Descending key order (default false: ascending). */
  readonly reverse?: boolean;
  /** At most this many entries, counted after both encodings are merged (default: all). */
  readonly limit?: number;
  /**
   * Read the whole iteration from one snapshot (default true, lmdb-js's default). false lets a long
   * scan see writes committed meanwhile instead of pinning an old read transaction (PITFALLS 22).
   */
  readonly snapshot?: boolean;
}

/** Ascending bounds of one encoding: start ≤ key < end. */
interface Bounds {
  readonly start: string;
  readonly end: string;
}

/**
 * Entries whose key starts with `k(...prefix, '')` (the parts, then U+0000), in code point order of
 * the keys (the order `k` keys of one length already have in LMDB), keys as strings.
 *
 * Scans both encodings (see RAW_KEY_MIN_UNITS) and merges them: the short form between `P\0` and
 * `P\x01`, and the raw UTF-8 form between the same bounds padded with U+0000 to 64 units (padding
 * forces the raw form; every raw key `P\0…` has 64+ units, so its bytes are ≥ the padded start). A
 * prefix of 64+ units has only the raw form. The bounds cover every id, astral characters included
 * (the former end bound `P\0\uffff` stopped before them).
 *
 * Contract (as for `k`): parts and ids contain no U+0000-U+0004, and the last part is not empty.
 * @param prefix the leading key parts, e.g. `[orgId]` for `org\0scenario` keys.
 * @returns a lazy iterable; break out of it early to release its read transactions.
 */
export function prefixRange<V>(
  db: Database<V, string>,
  prefix: readonly (string | number)[],
  options: ScanOptions = {},
): Iterable<{ key: string; value: V }> {
  const sources = prefixBounds(prefix).map((b) => decodedEntries(db.getRange(rangeOptions(b, options))));
  return merged(sources, (e) => e.key, options);
}

/** The keys of prefixRange, without reading values. Same order, options and contract. */
export function prefixKeys(
  db: Database<unknown, string>,
  prefix: readonly (string | number)[],
  options: ScanOptions = {},
): Iterable<string> {
  const sources = prefixBounds(prefix).map((b) => decodedKeys(db.getKeys(rangeOptions(b, options))));
  return merged(sources, (key) => key, options);
}

/**
 * Keys that sort before `bound` in code point order, ascending, as strings (time indexes such as
 * `<padded time>\0<id>`: `keysBelow(db, k(paddedNow, ''))` reads exactly the entries older than now).
 * Both encodings are scanned from the first key, each keeping the keys of its own form: the short
 * form up to `bound` (or its first 63 units, inclusive, when `bound` has 64+), the raw form up to
 * `bound` padded with U+0000 to 64 units (a raw key below the padded bound but not below `bound`
 * would be `bound` + U+0000s, shorter than 64 units: impossible). Keys that are not strings (the
 * shared msgpack structures symbol) are skipped. Collect the keys before removing them.
 */
export function keysBelow(
  db: Database<unknown, string>,
  bound: string,
  options: Pick<ScanOptions, 'snapshot'> = {},
): Iterable<string> {
  const snapshot = options.snapshot === undefined ? {} : { snapshot: options.snapshot };
  const short =
    bound.length < RAW_KEY_MIN_UNITS
      ? { end: bound }
      : { end: bound.slice(0, RAW_KEY_MIN_UNITS - 1), inclusiveEnd: true };
  return merged(
    [
      filtered(decodedKeys(db.getKeys({ ...short, ...snapshot })), (key) => key.length < RAW_KEY_MIN_UNITS),
      filtered(
        decodedKeys(db.getKeys({ end: bound.padEnd(RAW_KEY_MIN_UNITS, '\u0000'), ...snapshot })),
        (key) => key.length >= RAW_KEY_MIN_UNITS,
      ),
    ],
    (key) => key,
    {},
  );
}

/**
 * Every entry of `db` with its key as a string, in LMDB's byte order (short and raw keys interleave:
 * use it only where order does not matter, e.g. crash recovery). Non-string keys are skipped.
 */
export function allEntries<V>(db: Database<V, string>): Iterable<{ key: string; value: V }> {
  return decodedEntries(db.getRange());
}

/**
 * A key as the string that was written. ordered-binary reads a raw key containing U+0000 back as
 * the array of its parts (`00` is its array separator); short keys come back as strings.
 * @returns undefined for keys that are neither (the shared-structures symbol).
 */
export function keyString(key: unknown): string | undefined {
  if (typeof key === 'string') return key;
  return Array.isArray(key) ? key.map((part) => (part === null ? '' : String(part))).join('\u0000') : undefined;
}

/**
 * Compares two keys in code point order, the byte order of both encodings (JS `<` compares UTF-16
 * units, which puts U+E000-U+FFFF after astral characters). @returns negative, 0 or positive.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (astral characters) rank above U+E000-U+FFFF; everything else keeps its value. */
const unitRank = (u: number): number => (u < 0xd800 ? u : u < 0xe000 ? u + 0x2000 : u - 0x800);

function prefixBounds(prefix: readonly (string | number)[]): Bounds[] {
  const start = k(...prefix, '');
  const end = `${k(...prefix)}\u0001`;
  const raw = { start: start.padEnd(RAW_KEY_MIN_UNITS, '\u0000'), end: end.padEnd(RAW_KEY_MIN_UNITS, '\u0000') };
  return start.length < RAW_KEY_MIN_UNITS ? [{ start, end }, raw] : [raw];
}

function rangeOptions(b: Bounds, o: ScanOptions): RangeOptions {
  const common = {
    ...(o.limit === undefined ? {} : { limit: o.limit }),
    ...(o.snapshot === undefined ? {} : { snapshot: o.snapshot }),
  };
  // Reversed, lmdb-js starts at `start` inclusive and stops before `end`: flip both so the same keys come back.
  return o.reverse
    ? { start: b.end, end: b.start, reverse: true, exclusiveStart: true, inclusiveEnd: true, ...common }
    : { start: b.start, end: b.end, ...common };
}

function* decodedEntries<V>(range: Iterable<{ key: string; value: V }>): Generator<{ key: string; value: V }> {
  for (const e of range) {
    const key = keyString(e.key);
    if (key !== undefined) yield { key, value: e.value };
  }
}

function* decodedKeys(keys: Iterable<unknown>): Generator<string> {
  for (const raw of keys) {
    const key = keyString(raw);
    if (key !== undefined) yield key;
  }
}

function* filtered(keys: Iterable<string>, keep: (key: string) => boolean): Generator<string> {
  for (const key of keys) if (keep(key)) yield key;
}

/** Merges ascending (or, with `reverse`, descending) sources into one sequence, up to `limit`; closes every source when done. */
function* merged<T>(sources: Iterable<T>[], keyOf: (item: T) => string, o: ScanOptions): Generator<T> {
  const iterators = sources.map((s) => s[Symbol.iterator]());
  try {
    const heads = iterators.map((it) => it.next());
    const sign = o.reverse ? -1 : 1;
    for (let n = 0; n < (o.limit ?? Infinity); n++) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i]!;
        if (head.done) continue;
        const current = heads[best];
        if (current === undefined || current.done || sign * compareKeys(keyOf(head.value), keyOf(current.value)) < 0)
          best = i;
      }
      if (best < 0) return;
      yield (heads[best] as IteratorYieldResult<T>).value;
      heads[best] = iterators[best]!.next();
    }
  } finally {
    for (const it of iterators) it.return?.();
  }
}
