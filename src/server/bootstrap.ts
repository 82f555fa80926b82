/**
 * @module server/bootstrap: first start with an empty store creates a demo organization, a key, the
 * console's owner account and the example scenarios.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { KeyService } from './auth/keys.js';
import type { Users } from './console/users.js';
import type { Store } from '../store/store.js';
import { importScenario } from '../actors/scenarios.js';

/** What bootstrap writes to `DATA_DIR/bootstrap.json` (mode 0600). */
export interface BootstrapCredentials {
  readonly org_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
  readonly scenario_ids: readonly string[];
  /** The web console's owner account (issue 18): sign in at `/console/` with it. */
  readonly console: { readonly path: '/console/'; readonly email: string; readonly password: string };
}

/** What the first start made: the credentials written to `bootstrap.json` and the demo key's id. */
export interface FirstStart {
  readonly credentials: BootstrapCredentials;
  /** `key_id` of the demo key (not in the file; the first evaluation is recorded under it). */
  readonly keyId: string;
}

/** The e-mail of the owner account the first start creates. */
export const BOOTSTRAP_OWNER_EMAIL = 'owner@demo.local';

/**
 * Runs only when the store has no organization: creates "Demo Organization", one key with all
 * permissions, the console's owner account (`owner@demo.local`, a generated password), imports
 * every `*.blueprint.json` of `examplesDir` (scenario id = file name without the suffix) and
 * writes the credentials file. The demo scenarios are evaluated afterwards, by main.ts with
 * bootstrap-evaluation (this only creates). @returns what it made, or null when the store was not
 * empty (every later start).
 */
export async function bootstrapDemo(
  store: Store,
  keys: KeyService,
  users: Users,
  dataDir: string,
  examplesDir: string,
): Promise<FirstStart | null> {
  if (!(await store.organizations.isEmpty())) return null;
  const org = await keys.createOrg('Demo Organization');
  const issued = await keys.createKey(org.org_id, { name: 'demo' });
  const password = randomBytes(18).toString('base64url');
  await users.create(org.org_id, BOOTSTRAP_OWNER_EMAIL, 'owner', password);
  const scenarioIds: string[] = [];
  for (const file of readdirSync(examplesDir)
    .filter((f) => f.endsWith('.blueprint.json'))
    .sort()) {
    const id = basename(file, '.blueprint.json');
    await importScenario(store.scenarios, org.org_id, id, readFileSync(join(examplesDir, file), 'utf8'));
    scenarioIds.push(id);
  }
  const credentials: BootstrapCredentials = {
    org_id: org.org_id,
    api_key: issued.api_key,
    signing_secret: issued.signing_secret,
    scenario_ids: scenarioIds,
    console: { path: '/console/', email: BOOTSTRAP_OWNER_EMAIL, password },
  };
  writeFileSync(join(dataDir, 'bootstrap.json'), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, keyId: issued.key_id };
}

/**
 * Whether the first-start banner with the secrets may be printed: only to a terminal (a pipe feeds a
 * log collector), and never with `NODE_ENV=production` (the container image sets it: a container's
 * terminal output is kept by its log driver all the same). Otherwise only the file's path is printed.
 */
export function mayPrintFirstStartSecrets(stdoutIsTTY: boolean, nodeEnv: string | undefined): boolean {
  return stdoutIsTTY && nodeEnv !== 'production';
}

/**
 * The first-start banner with the credentials, for a terminal only (main.ts prints it when stdout is
 * a TTY; with a pipe, log collectors would keep the secrets).
 */
export function firstStartBanner(creds: BootstrapCredentials, file: string): string {
  return (
    [
      '',
      '  First start: created a demo organization. These credentials are shown once',
      `  (also saved to ${file}, mode 0600):`,
      `    org_id          ${creds.org_id}`,
      `    api_key         ${creds.api_key}`,
      `    signing_secret  ${creds.signing_secret}`,
      `    scenario_ids    ${creds.scenario_ids.join(', ')}`,
      `  Web console: ${creds.console.path} as ${creds.console.email}, password ${creds.console.password}`,
      '  Try it: npm run demo',
      '',
    ].join('\n') + '\n'
  );
}
