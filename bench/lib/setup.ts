/** @module bench/lib/setup: prepares a store (an LMDB data directory, or a Redis prefix) with an organization, a bench key (high limits) and stored scenarios, before the service starts. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { Users } from '../../src/server/console/users.js';
import { loadServerSecrets, type ServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { openRedisStore } from '../../src/store/redis/store.js';
import type { Store } from '../../src/store/store.js';

/** A prepared data directory. */
export interface Prepared {
  readonly dataDir: string;
  readonly orgId: string;
  readonly credentials: { apiKey: string; signingSecret: string };
  /** A console account of the organization (role member) for the console's reads. */
  readonly consoleUser: { email: string; password: string };
}

/** A prepared Redis prefix: the organization and key, without a data directory. */
export type PreparedRedis = Omit<Prepared, 'dataDir'>;

/** Creates the organization and key in an open `store` and imports `scenarios` (id → blueprint JSON). */
async function seed(
  store: Store,
  secrets: ServerSecrets,
  scenarios: Iterable<[string, string]>,
): Promise<Omit<Prepared, 'dataDir'>> {
  const keys = new KeyService(store.organizations, secrets, 'gov');
  const org = await keys.createOrg('Bench');
  const key = await keys.createKey(org.org_id, { name: 'bench', perMinute: 1_000_000_000, perHour: 1_000_000_000 });
  const consoleUser = { email: 'bench@bench.test', password: 'bench console password' };
  await new Users(store.consoleAccounts, store.organizations, 'gov').create(
    org.org_id,
    consoleUser.email,
    'member',
    consoleUser.password,
  );
  for (const [id, json] of scenarios) await importScenario(store.scenarios, org.org_id, id, json);
  return { orgId: org.org_id, credentials: { apiKey: key.api_key, signingSecret: key.signing_secret }, consoleUser };
}

/** Creates an organization and a key whose limits are raised for benchmarking, and imports `scenarios` (id → blueprint JSON). */
export async function prepare(scenarios: Iterable<[string, string]>): Promise<Prepared> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-bench-'));
  const store = openStore(dataDir);
  try {
    return { dataDir, ...(await seed(store, loadServerSecrets(dataDir), scenarios)) };
  } finally {
    await store.close();
  }
}

/**
 * The same as `prepare` in cluster mode: in the Redis at `redisUrl` under `prefix`, with the secrets
 * the nodes get as GOV_KEY_PEPPER and GOV_MASTER_KEY (`secretsEnv`, 64 hex each).
 */
export async function prepareRedis(
  redisUrl: string,
  prefix: string,
  secretsEnv: { GOV_KEY_PEPPER: string; GOV_MASTER_KEY: string },
  scenarios: Iterable<[string, string]>,
): Promise<PreparedRedis> {
  const store = await openRedisStore(redisUrl, { prefix });
  try {
    // Both secrets come from the environment argument, so the (unused) data directory is not touched.
    return await seed(store, loadServerSecrets('/nonexistent', secretsEnv), scenarios);
  } finally {
    await store.close();
  }
}
