/** @module engine/fingerprint: stable finding fingerprints (two 32-bit FNV-1a hashes, pure JS, no clock or randomness). */

/** FNV-1a state of both hashes after some input. */
export interface FingerprintState {
  readonly h1: number;
  readonly h2: number;
}

const FNV_START: FingerprintState = { h1: 0x811c9dc5, h2: 0x050c5d1f };
/** Two lower-case hex digits per byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * 16-hex-digit fingerprint of the given parts (joined with U+001F): FNV-1a 32-bit with two
 * different offset bases, concatenated. Used for `(policy, scenario, module pointer)`, so a finding
 * can be tracked across blueprint versions. Not a security hash.
 */
export function fingerprint(...parts: string[]): string {
  return fingerprintFrom(FNV_START, parts);
}

/**
 * The state after hashing `parts` joined with U+001F, followed by one more U+001F: the prefix of
 * `fingerprint(...parts, more)` (a violation's policy and scenario, shared by its findings), so
 * each finding hashes only its pointer. `fingerprintFrom(fingerprintPrefix(a, b), [c])` equals
 * `fingerprint(a, b, c)`.
 */
export function fingerprintPrefix(...parts: string[]): FingerprintState {
  return separate(advance(FNV_START, parts));
}

/**
 * `fingerprint(...parts)` and `fingerprintPrefix(...parts)` from one pass over `parts`: a violation's
 * own fingerprint is its policy and scenario, and its findings continue from the same text plus a
 * separator (the scenario id is hashed once per violation instead of twice).
 */
export function fingerprintWithPrefix(...parts: string[]): {
  readonly fingerprint: string;
  readonly prefix: FingerprintState;
} {
  const state = advance(FNV_START, parts);
  return { fingerprint: render(state), prefix: separate(state) };
}

/** Continues `state` with `parts` joined with U+001F and renders the 16-hex-digit fingerprint. */
export function fingerprintFrom(state: FingerprintState, parts: readonly string[]): string {
  return render(advance(state, parts));
}

/** Both hashes continued with `parts` joined with U+001F (no separator before the first part). */
function advance(state: FingerprintState, parts: readonly string[]): FingerprintState {
  let h1 = state.h1;
  let h2 = state.h2;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (p > 0) {
      h1 = Math.imul(h1 ^ 0x1f, 0x01000193);
      h2 = Math.imul(h2 ^ 0x1f, 0x01000193) ^ (h1 >>> 15);
    }
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 15);
    }
  }
  return { h1, h2 };
}

/** `state` continued with one U+001F separator. */
function separate(state: FingerprintState): FingerprintState {
  const h1 = Math.imul(state.h1 ^ 0x1f, 0x01000193);
  return { h1, h2: Math.imul(state.h2 ^ 0x1f, 0x01000193) ^ (h1 >>> 15) };
}

function render(state: FingerprintState): string {
  return hex32(state.h1) + hex32(state.h2);
}

function hex32(h: number): string {
  return HEX[(h >>> 24) & 0xff]! + HEX[(h >>> 16) & 0xff]! + HEX[(h >>> 8) & 0xff]! + HEX[h & 0xff]!;
}
