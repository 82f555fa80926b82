/**
 * Range scans over `k(...)` keys find every key of a prefix whatever its length: lmdb-js stores keys of
 * 64+ UTF-16 units as raw UTF-8 and shorter ones with U+0000 escaped, in different byte regions
 * (issue 13, item 10). Checked against a brute-force filter over all keys.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { k, LmdbTables } from '../../../src/store/lmdb/tables.js';
import { compareKeys, keysBelow, prefixKeys, prefixRange } from '../../../src/store/lmdb/ranges.js';

const ORG = '3f2b8c1e-0d4a-4c6e-9b7a-1a2b3c4d5e6f';
/** Prefixes side by side: a neighbour, an extension of ORG, two parts, one of 64+ units, non-ASCII. */
const PREFIXES: readonly (readonly string[])[] = [
  [ORG],
  [`${ORG.slice(0, -1)}g`],
  [`${ORG}0`],
  [ORG, 'scen'],
  ['L'.repeat(70)],
  ['é中😀-org'],
];
/** Id characters: ASCII, 2- and 3-byte UTF-8 (U+E000-U+FFFF sort after astral ones in UTF-16), astral. */
const CHARS = ['a', 'z', 'A', '0', '9', '-', '_', '.', '~', '\u007f', 'é', '中', '\ue000', '\uffee', '😀', '𝄞'];
const SEED = 20_261_122;
const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url));
/** An lmdb range call given bounds, or a hand-made upper bound. */
const HAND_MADE_BOUNDS = /\.(?:getRange|getKeys|getKeysCount|getValues)\(\{[^}]*\b(?:start|end)\b|\\uffff/;

/** Ids of 1-128 UTF-16 units, uniformly (fast-check's default size would keep them under ~16), never splitting a surrogate pair. */
const idArb = fc
  .integer({ min: 1, max: 128 })
  .chain((n) => fc.array(fc.constantFrom(...CHARS), { minLength: n, maxLength: n }))
  .map((chars) => {
    let id = '';
    for (const c of chars) if (id.length + c.length <= 128) id += c;
    return id;
  });
const keyArb = fc.tuple(fc.nat(PREFIXES.length - 1), idArb).map(([p, id]) => k(...PREFIXES[p]!, id));

/** The oracle: UTF-8 byte order, computed independently of compareKeys. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('store range scans', () => {
  let dir: string;
  let store: LmdbTables;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-ranges-'));
    store = new LmdbTables(dir);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes `keys` (value: the key's index) into the outbox, runs `check`, removes them again. */
  async function withKeys(keys: readonly string[], check: () => void): Promise<void> {
    const db = store.outbox;
    await db.transaction(() => {
      keys.forEach((key, i) => void db.put(key, String(i)));
    });
    try {
      check();
    } finally {
      await db.transaction(() => {
        for (const key of keys) void db.remove(key);
      });
    }
  }

  it("finds the issue's keys: org ids joined with ids of 20-33 characters, all of them", async () => {
    const keys = Array.from({ length: 14 }, (_, i) => k(ORG, 'a'.repeat(20 + i)));
    await withKeys(keys, () => {
      assert.deepEqual([...prefixKeys(store.outbox, [ORG])], keys);
      assert.deepEqual(
        [...prefixRange(store.outbox, [ORG])].map((e) => e.value),
        keys.map((_, i) => String(i)),
      );
    });
  });

  it('returns the same keys as a brute-force filter, forward, reverse and with a limit, for ids of 1-128 units', async () => {
    const query = fc.record({
      prefix: fc.nat(PREFIXES.length - 1),
      reverse: fc.boolean(),
      limit: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(keyArb, { maxLength: 60, size: 'max' }), query, async (keys, q) => {
        const prefix = k(...PREFIXES[q.prefix]!, '');
        const want = keys.filter((key) => key.startsWith(prefix)).sort(byteOrder);
        if (q.reverse) want.reverse();
        const expected = want.slice(0, q.limit ?? Infinity);
        await withKeys(keys, () => {
          const options = { reverse: q.reverse, ...(q.limit === undefined ? {} : { limit: q.limit }) };
          const entries = [...prefixRange(store.outbox, PREFIXES[q.prefix]!, options)];
          assert.deepEqual(
            entries.map((e) => e.key),
            expected,
          );
          assert.deepEqual(
            entries.map((e) => e.value),
            expected.map((key) => String(keys.indexOf(key))),
          );
          assert.deepEqual(
            [...prefixKeys(store.outbox, PREFIXES[q.prefix]!, { ...options, snapshot: false })],
            expected,
          );
        });
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('lists the newest keys first across both encodings with reverse and a limit (the deliveries log)', async () => {
    // Sequence numbers of growing width: the newest ids are the longest, stored in the raw region.
    const keys = Array.from({ length: 40 }, (_, i) => k(ORG, `${String.fromCharCode(0x41 + i)}${'x'.repeat(i)}`));
    await withKeys(keys, () => {
      assert.deepEqual([...prefixKeys(store.outbox, [ORG], { reverse: true, limit: 5 })], keys.slice(-5).reverse());
      assert.deepEqual([...prefixKeys(store.outbox, [ORG], { limit: 3 })], keys.slice(0, 3));
    });
  });

  it('reads records databases (which hold the shared-structures symbol key) by prefix', async () => {
    const record = (id: string) => ({
      org_id: ORG,
      scenario_id: id,
      name: 'n',
      version: 1,
      imported_at: 'now',
      module_count: 1,
    });
    const ids = ['a', 'b'.repeat(27), 'c'.repeat(128)];
    for (const id of ids) await store.scenarios.put(k(ORG, id), record(id));
    assert.deepEqual(
      [...prefixRange(store.scenarios, [ORG])].map((e) => e.value.scenario_id),
      ids,
    );
  });

  it('keysBelow returns exactly the keys before a bound, time-indexed or arbitrary', async () => {
    const timeKey = fc
      .tuple(fc.integer({ min: 0, max: 9 }), idArb)
      .map(([t, id]) => k(String(t).padStart(12, '0'), id));
    const bound = fc.oneof(
      fc.integer({ min: 0, max: 10 }).map((t) => k(String(t).padStart(12, '0'), '')),
      keyArb,
      idArb,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.oneof(timeKey, keyArb), { maxLength: 60, size: 'max' }),
        bound,
        async (keys, b) => {
          const expected = keys.filter((key) => byteOrder(key, b) < 0).sort(byteOrder);
          await withKeys(keys, () => assert.deepEqual([...keysBelow(store.outbox, b)], expected));
        },
      ),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('compares keys in code point order', () => {
    fc.assert(
      fc.property(idArb, idArb, (a, b) => Math.sign(compareKeys(a, b)) === Math.sign(byteOrder(a, b))),
      { seed: SEED, numRuns: 500 },
    );
  });
});

it('builds range bounds only in src/store (every other scan goes through store/ranges)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  const all = files(SRC).filter((f) => !f.startsWith(join(SRC, 'store')));
  assert.ok(all.length > 50);
  for (const file of all) assert.doesNotMatch(readFileSync(file, 'utf8'), HAND_MADE_BOUNDS, file);
});
