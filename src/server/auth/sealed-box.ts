/**
 * @module server/auth/sealed-box: authenticated encryption of bytes the server keeps but must not hold
 * in clear (issue 31, item 3: idempotency replay records carry `whsec_` secrets and result tokens).
 * AES-256-GCM (NIST SP 800-38D) from node:crypto, under a 32-byte sub-key of the master key
 * (`deriveKey(secrets, purpose)`, so GOV_MASTER_KEY in cluster mode), a random 96-bit nonce per
 * message and a 128-bit tag; the caller's `context` is the additional authenticated data, so a
 * sealed value opens only in the place it was sealed for.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The first bytes of a sealed value (version 1). A JSON body starts with `{` or `[`, never with a NUL. */
const MAGIC = Buffer.from('\u0000gs1', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + NONCE_BYTES + TAG_BYTES;
const ALGORITHM = 'aes-256-gcm';

/** Seals and opens bytes under one key. */
export class SealedBox {
  /** @param key 32 bytes, e.g. `deriveKey(secrets, 'idempotency-replay')`. @throws Error for another length. */
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SealedBox needs a 32-byte key');
  }

  /** True when `bytes` are in the sealed format (they may still fail to open). */
  static isSealed(bytes: Uint8Array): boolean {
    return bytes.length >= HEADER_BYTES && Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC.length).equals(MAGIC);
  }

  /**
   * Encrypts `plain` bound to `context`.
   * @returns magic (4 bytes) ‖ nonce (12) ‖ tag (16) ‖ ciphertext (as long as `plain`).
   */
  seal(plain: Uint8Array, context: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([MAGIC, nonce, cipher.getAuthTag(), body]);
  }

  /**
   * Decrypts what `seal` returned for the same `context`.
   * @returns the plain bytes, or null when `sealed` is not in the format, was altered, was sealed for
   * another context or under another key (the master key changed).
   */
  open(sealed: Uint8Array, context: string): Buffer | null {
    if (!SealedBox.isSealed(sealed)) return null;
    const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length);
    const nonce = bytes.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
    const tag = bytes.subarray(MAGIC.length + NONCE_BYTES, HEADER_BYTES);
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES)), decipher.final()]);
    } catch {
      return null;
    }
  }
}
