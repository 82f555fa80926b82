/**
 * @module server/auth/hmac-sha256: HMAC-SHA256 (RFC 2104 over FIPS 180-4 SHA-256) with the key's
 * inner and outer states computed once per key. The request-signature check runs on every request;
 * `createHmac` builds a native context per call and re-hashes the padded key twice each time
 * (about a quarter of a signed read's JavaScript time). Here a request costs the message's blocks
 * plus one outer block, with no allocation. Checked against node:crypto by a property test
 * (test/unit/request-signature.test.ts).
 */
import { createHash, createHmac } from 'node:crypto';

/** SHA-256 round constants (FIPS 180-4 §4.2.2). */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
/** SHA-256 initial hash value (FIPS 180-4 §5.3.3). */
const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const BLOCK = 64;
/** Body size from which node:crypto is faster than this code (measured crossover ~400 bytes on x86-64 with SHA-NI). */
export const NATIVE_FROM_BYTES = 512;

// Scratch space shared by every call (the event loop runs one call at a time).
const W = new Int32Array(64);
const state = new Int32Array(8);
const pending = new Uint8Array(BLOCK);
const encoder = new TextEncoder();
let head = new Uint8Array(1024);

/** One SHA-256 compression of `src[at .. at + 64)` into `h` (FIPS 180-4 §6.2.2). */
function compress(h: Int32Array, src: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    W[i] = (src[j]! << 24) | (src[j + 1]! << 16) | (src[j + 2]! << 8) | src[j + 3]!;
  }
  compressW(h);
}

/** Σ0 and Σ1 of FIPS 180-4 §4.1.2 (4.4, 4.5). */
const big0 = (x: number): number => ((x >>> 2) | (x << 30)) ^ ((x >>> 13) | (x << 19)) ^ ((x >>> 22) | (x << 10));
const big1 = (x: number): number => ((x >>> 6) | (x << 26)) ^ ((x >>> 11) | (x << 21)) ^ ((x >>> 25) | (x << 7));

/**
 * One SHA-256 compression into `h` of the block whose 16 big-endian words are already in `W[0..16)`.
 * The 64 rounds run eight at a time with the working variables' roles rotated in the code instead of
 * moved between registers (the usual unrolling: after eight rounds every variable is back in its
 * role); Ch and Maj in their three-operation forms, `g ^ (e & (f ^ g))` and `(a & b) | (c & (a | b))`.
 */
function compressW(h: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!,
    f = h[5]!,
    g = h[6]!,
    hh = h[7]!;
  for (let i = 0; i < 64; i += 8) {
    hh = (hh + big1(e) + (g ^ (e & (f ^ g))) + K[i + 0]! + W[i + 0]!) | 0;
    d = (d + hh) | 0;
    hh = (hh + big0(a) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + big1(d) + (f ^ (d & (e ^ f))) + K[i + 1]! + W[i + 1]!) | 0;
    c = (c + g) | 0;
    g = (g + big0(hh) + ((hh & a) | (b & (hh | a)))) | 0;
    f = (f + big1(c) + (e ^ (c & (d ^ e))) + K[i + 2]! + W[i + 2]!) | 0;
    b = (b + f) | 0;
    f = (f + big0(g) + ((g & hh) | (a & (g | hh)))) | 0;
    e = (e + big1(b) + (d ^ (b & (c ^ d))) + K[i + 3]! + W[i + 3]!) | 0;
    a = (a + e) | 0;
    e = (e + big0(f) + ((f & g) | (hh & (f | g)))) | 0;
    d = (d + big1(a) + (c ^ (a & (b ^ c))) + K[i + 4]! + W[i + 4]!) | 0;
    hh = (hh + d) | 0;
    d = (d + big0(e) + ((e & f) | (g & (e | f)))) | 0;
    c = (c + big1(hh) + (b ^ (hh & (a ^ b))) + K[i + 5]! + W[i + 5]!) | 0;
    g = (g + c) | 0;
    c = (c + big0(d) + ((d & e) | (f & (d | e)))) | 0;
    b = (b + big1(g) + (a ^ (g & (hh ^ a))) + K[i + 6]! + W[i + 6]!) | 0;
    f = (f + b) | 0;
    b = (b + big0(c) + ((c & d) | (e & (c | d)))) | 0;
    a = (a + big1(f) + (hh ^ (f & (g ^ hh))) + K[i + 7]! + W[i + 7]!) | 0;
    e = (e + a) | 0;
    a = (a + big0(b) + ((b & c) | (d & (b | c)))) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + hh) | 0;
}

/** Absorbs `src[from .. to)` into `state`, with `fill` bytes already waiting in `pending`. @returns the new fill. */
function absorb(src: Uint8Array, from: number, to: number, fill: number): number {
  let i = from;
  if (fill > 0) {
    const take = Math.min(BLOCK - fill, to - i);
    for (let j = 0; j < take; j++) pending[fill + j] = src[i + j]!;
    fill += take;
    i += take;
    if (fill < BLOCK) return fill;
    compress(state, pending, 0);
    fill = 0;
  }
  for (; i + BLOCK <= to; i += BLOCK) compress(state, src, i);
  for (let j = 0; i + j < to; j++) pending[j] = src[i + j]!;
  return to - i;
}

/** Pads and finishes `state` after `total` message bytes, `fill` of them still in `pending`. */
function finish(fill: number, total: number): void {
  pending[fill++] = 0x80;
  if (fill > BLOCK - 8) {
    pending.fill(0, fill);
    compress(state, pending, 0);
    fill = 0;
  }
  pending.fill(0, fill, BLOCK - 8);
  const bits = total * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  pending[56] = high >>> 24;
  pending[57] = high >>> 16;
  pending[58] = high >>> 8;
  pending[59] = high;
  pending[60] = bits >>> 24;
  pending[61] = bits >>> 16;
  pending[62] = bits >>> 8;
  pending[63] = bits;
  compress(state, pending, 0);
}

function writeState(out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) {
    const v = state[i]!;
    out[at + i * 4] = v >>> 24;
    out[at + i * 4 + 1] = v >>> 16;
    out[at + i * 4 + 2] = v >>> 8;
    out[at + i * 4 + 3] = v;
  }
}

/** An HMAC-SHA256 key with its inner and outer states precomputed. */
export class HmacSha256Key {
  private readonly inner = new Int32Array(8);
  private readonly outer = new Int32Array(8);
  /** The secret as given, for native HMAC of long bodies. */
  private readonly secret: Uint8Array;

  /** @param key the secret; longer than a block, it is replaced by its SHA-256 digest (RFC 2104 §2). */
  constructor(key: Uint8Array | string) {
    this.secret = typeof key === 'string' ? Buffer.from(key, 'utf8') : Uint8Array.prototype.slice.call(key);
    let raw: Uint8Array = this.secret;
    if (raw.length > BLOCK) raw = createHash('sha256').update(raw).digest();
    const block = new Uint8Array(BLOCK);
    for (const [pad, target] of [
      [0x36, this.inner],
      [0x5c, this.outer],
    ] as const) {
      for (let i = 0; i < BLOCK; i++) block[i] = (raw[i] ?? 0) ^ pad;
      state.set(IV);
      compress(state, block, 0);
      target.set(state);
    }
  }

  /**
   * Writes HMAC-SHA256(key, UTF-8(`text`) ‖ `body`) into `out[0..32)`. Bodies of NATIVE_FROM_BYTES
   * or more go to node:crypto, whose SHA extensions outrun this code once the per-call setup
   * (~3 µs) is paid back: a 16 KB inline blueprint took ~100 µs here and ~14 µs there.
   * @param out at least 32 bytes.
   */
  digestInto(text: string, body: Uint8Array, out: Uint8Array): void {
    if (body.length >= NATIVE_FROM_BYTES) {
      out.set(createHmac('sha256', this.secret).update(text).update(body).digest());
      return;
    }
    if (head.length < text.length * 3) head = new Uint8Array(text.length * 3);
    this.digestBytesInto(head, encoder.encodeInto(text, head).written, body, out);
  }

  /**
   * Writes HMAC-SHA256(key, `text[0..textBytes)` ‖ `body`) into `out[0..32)`: the same as
   * `digestInto` for a text already encoded (by a caller that writes it without building a string).
   * @param text the message's first bytes (read before this returns; a scratch buffer may be reused)
   * @param out at least 32 bytes.
   */
  digestBytesInto(text: Uint8Array, textBytes: number, body: Uint8Array, out: Uint8Array): void {
    if (body.length >= NATIVE_FROM_BYTES) {
      out.set(createHmac('sha256', this.secret).update(text.subarray(0, textBytes)).update(body).digest());
      return;
    }
    state.set(this.inner);
    let fill = absorb(text, 0, textBytes, 0);
    fill = absorb(body, 0, body.length, fill);
    finish(fill, BLOCK + textBytes + body.length);
    // The outer hash's one block is the inner digest (its 8 state words), 0x80, zeros and the bit
    // length of pad block + digest (96 bytes = 768 bits): written as words, no bytes in between.
    for (let i = 0; i < 8; i++) W[i] = state[i]!;
    W[8] = 0x80000000 | 0;
    W.fill(0, 9, 15);
    W[15] = (BLOCK + 32) * 8;
    state.set(this.outer);
    compressW(state);
    writeState(out, 0);
  }
}
