/**
 * @module store/redis/codec: how the Redis backend encodes records. Records are msgpack (msgpackr,
 * as in the LMDB backend; about half the bytes of JSON and no string escaping); records a Lua script
 * must read (scenario records, rollup contributions) are JSON, which Redis' Lua decodes with cjson.
 * Bytes the service stores as they are (blueprints, results, views, remediation) are never re-encoded.
 */
import { pack, unpack } from 'msgpackr';

/** A record as msgpack bytes. */
export function packRecord(record: unknown): Buffer {
  return pack(record);
}

/** A record read back from msgpack bytes, or undefined for a missing value. */
export function unpackRecord<T>(bytes: Buffer | null | undefined): T | undefined {
  return bytes === null || bytes === undefined ? undefined : (unpack(bytes) as T);
}

/** Compares ids in code point order (= UTF-8 byte order, the order "by id" means in every backend). */
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The values of a hash reply ordered by field in code point order, decoded with `decode`. */
export function valuesById<T>(hash: Record<string, Buffer>, decode: (bytes: Buffer) => T): T[] {
  return Object.keys(hash)
    .sort(byCodePoint)
    .map((id) => decode(hash[id]!));
}
