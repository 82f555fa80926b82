/** @module server/auth/server-secrets: the server pepper and master key, never logged or committed. */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Server-side secrets. `pepper` keys the API-key hash; `master` derives signing secrets, token and watermark keys. */
export interface ServerSecrets {
  readonly pepper: Buffer;
  readonly master: Buffer;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The secrets file in DATA_DIR (when the secrets do not come from the environment); `admin backup` copies it. */
export const SECRETS_FILE = 'secrets.json';

/**
 * Loads `GOV_KEY_PEPPER` / `GOV_MASTER_KEY` (64 hex each) from the environment, else
 * `<dataDir>/secrets.json` (mode 0600), creating it with random values on first use.
 * @throws Error when an environment value is not 64 hex characters.
 */
export function loadServerSecrets(
  dataDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServerSecrets {
  const fromEnv = (name: string): Buffer | null => {
    const v = env[name];
    if (!v) return null;
    if (!HEX64.test(v)) throw new Error(`${name} must be 64 lower-case hex characters`);
    return Buffer.from(v, 'hex');
  };
  const pepper = fromEnv('GOV_KEY_PEPPER');
  const master = fromEnv('GOV_MASTER_KEY');
  // Both from the environment (cluster mode requires it): DATA_DIR is neither read nor written.
  if (pepper && master) return { pepper, master };
  const path = join(dataDir, SECRETS_FILE);
  let file: { pepper?: string; master?: string } = {};
  if (existsSync(path)) file = JSON.parse(readFileSync(path, 'utf8')) as typeof file;
  if (!file.pepper || !file.master) {
    file = { pepper: randomBytes(32).toString('hex'), master: randomBytes(32).toString('hex'), ...file };
    writeFileSync(path, JSON.stringify(file), { mode: 0o600, flag: existsSync(path) ? 'w' : 'wx' });
  }
  return {
    pepper: pepper ?? Buffer.from(file.pepper!, 'hex'),
    master: master ?? Buffer.from(file.master!, 'hex'),
  };
}

/** HMAC-SHA256(master, purpose) as raw bytes: independent sub-keys per purpose. */
export function deriveKey(secrets: ServerSecrets, purpose: string): Buffer {
  return createHmac('sha256', secrets.master).update(purpose).digest();
}
