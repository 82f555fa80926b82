/** @module engine/fingerprint: stable finding fingerprints (two 32-bit FNV-1a hashes, pure JS, no clock or randomness). */

/**
 * 16-hex-digit fingerprint of the given parts (joined with U+001F): FNV-1a 32-bit with two
 * different offset bases, concatenated. Used for `(policy, scenario, module pointer)`, so a finding
 * can be tracked across blueprint versions. Not a security hash.
 */
export function fingerprint(...parts: string[]): string {
  const s = parts.join('\u001f');
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
