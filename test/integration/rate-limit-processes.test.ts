/**
 * Rate limits across real server processes (issue 13 item 13, OWASP API4; spec §8): three services on
 * one DATA_DIR admit at most a key's limit in total, whichever process answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GovernanceClient, type ClientResponse } from '../../src/client/client.js';
import type { PolicyCatalog, Reply } from '../../src/client/responses.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { startService, type ServiceProcess } from '../helpers/process.js';
import { errorOf } from '../helpers/assertions.js';

const LIMIT = 60;
const REQUESTS = 200;
const CONCURRENCY = 60;

describe('rate limits across three processes on one DATA_DIR', () => {
  let dataDir: string;
  let credentials: { apiKey: string; signingSecret: string };
  let services: ServiceProcess[] = [];
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gov-rate-procs-'));
    const store = openStore(dataDir);
    const keys = new KeyService(store.organizations, loadServerSecrets(dataDir), 'gov');
    const org = await keys.createOrg('Rate');
    // Both limits 60: even if the clock minute rolls during the test, the hour keeps the total at 60.
    const k = await keys.createKey(org.org_id, { perMinute: LIMIT, perHour: LIMIT });
    await store.close();
    credentials = { apiKey: k.api_key, signingSecret: k.signing_secret };
    services = await Promise.all([0, 1, 2].map(() => startService({ DATA_DIR: dataDir, POOL_THREADS: '1' })));
  });
  after(async () => {
    const stopped = await Promise.all(services.map((s) => s.stop('SIGTERM')));
    rmSync(dataDir, { recursive: true, force: true });
    assert.deepEqual(
      stopped.map((s) => s.code),
      [0, 0, 0],
      'every process shut down gracefully',
    );
  });

  it(`admits exactly ${LIMIT} of ${REQUESTS} calls spread round-robin over the processes; the rest get 429 with Retry-After`, async () => {
    // An hour boundary during the run would open a second hour window (and so up to 120 admissions): start after it.
    const intoHourS = (Date.now() / 1000) % 3600;
    if (intoHourS > 3600 - 15) await sleep((3600 - intoHourS + 1) * 1000);
    const clients = services.map((s) => new GovernanceClient(s.baseUrl, credentials));
    const results: { status: number; headers: ClientResponse['headers']; error?: string }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const r = await clients[i % clients.length]!.call<Reply<PolicyCatalog>>('GET', `/governance/policies?n=${i}`);
          results.push({ status: r.status, headers: r.headers, error: errorOf(r.body) });
        }
      }),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    assert.equal(ok.length, LIMIT, `admitted ${ok.length} of ${REQUESTS}`);
    assert.equal(
      limited.length,
      REQUESTS - LIMIT,
      `other statuses: ${results
        .filter((r) => r.status !== 200 && r.status !== 429)
        .map((r) => r.status)
        .join(',')}`,
    );
    for (const r of limited) {
      assert.equal(r.error, 'Rate limit exceeded');
      assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/);
    }
    for (const r of ok) {
      assert.equal(r.headers['x-ratelimit-limit'], String(LIMIT));
      const remaining = Number(r.headers['x-ratelimit-remaining']);
      assert.ok(remaining >= 0 && remaining < LIMIT, `remaining ${remaining}`);
    }
  });
});
