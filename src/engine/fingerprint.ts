/** @module engine/fingerprint: stable finding fingerprints (FNV-1a 64-bit, pure JS, no clock or randomness). */

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/**
 * 16-hex-digit fingerprint of the given parts (joined with U+001F). Used for
 * `(policy, scenario, module pointer)`, so a finding can be tracked across blueprint versions.
 */
export function fingerprint(...parts: string[]): string {
  let h = FNV_OFFSET;
  const s = parts.join('\u001f');
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * FNV_PRIME) & MASK;
  }
  return h.toString(16).padStart(16, '0');
}
