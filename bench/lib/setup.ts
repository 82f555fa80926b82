/** @module bench/lib/setup: prepares a data directory with an organization, a bench key (high limits) and stored scenarios, before the service starts. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';

/** A prepared data directory. */
export interface Prepared {
  readonly dataDir: string;
  readonly orgId: string;
  readonly credentials: { apiKey: string; signingSecret: string };
}

/** Creates an organization and a key whose limits are raised for benchmarking, and imports `scenarios` (id → blueprint JSON). */
export async function prepare(scenarios: Iterable<[string, string]>): Promise<Prepared> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-bench-'));
  const store = openStore(dataDir);
  const keys = new KeyService(store.organizations, loadServerSecrets(dataDir), 'gov');
  const org = await keys.createOrg('Bench');
  const key = await keys.createKey(org.org_id, { name: 'bench', perMinute: 1_000_000_000, perHour: 1_000_000_000 });
  for (const [id, json] of scenarios) await importScenario(store.scenarios, org.org_id, id, json);
  await store.close();
  return { dataDir, orgId: org.org_id, credentials: { apiKey: key.api_key, signingSecret: key.signing_secret } };
}
