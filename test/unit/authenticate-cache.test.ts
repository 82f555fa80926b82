/** The key look-up cache of the authenticate stage (server/pipeline/authenticate): a revoked key is refused within KEY_CACHE_TTL_MS. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { authenticate, KEY_CACHE_TTL_MS } from '../../src/server/pipeline/authenticate.js';
import type { ApiRequest, RequestContext } from '../../src/server/http/types.js';

const request = (apiKey: string) => ({ headers: { authorization: `Bearer ${apiKey}` } }) as unknown as ApiRequest;
const context = (): RequestContext => ({
  key: null,
  watermark: null,
  rate: null,
  params: {},
  template: null,
  clientIp: null,
});

it('refuses a revoked key once its cached look-up is older than KEY_CACHE_TTL_MS, also while its requests come in runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-auth-'));
  const store = openStore(dir);
  try {
    const keys = new KeyService(
      store.organizations,
      { pepper: Buffer.alloc(32, 1), master: Buffer.alloc(32, 2) },
      'gov',
    );
    const org = await keys.createOrg('Org');
    const a = await keys.createKey(org.org_id);
    const b = await keys.createKey(org.org_id);
    let t = 1_795_000_000_000;
    const stage = authenticate(
      keys,
      () => t,
      () => true,
      { mark: () => undefined },
    );
    const admitted = (apiKey: string) => {
      const ctx = context();
      const out = stage(request(apiKey), ctx);
      assert.ok(!(out instanceof Promise));
      return out === null ? ctx.key!.key_id : out.status;
    };
    assert.equal(admitted(a.api_key), a.key_id);
    assert.equal(admitted(a.api_key), a.key_id);
    assert.equal(admitted(b.api_key), b.key_id);
    await keys.revoke(a.key_id);
    // Within the bound the cached look-up may still admit it; the other key is untouched.
    t += KEY_CACHE_TTL_MS - 1;
    assert.equal(admitted(a.api_key), a.key_id);
    assert.equal(admitted(a.api_key), a.key_id);
    t += 2;
    assert.equal(admitted(a.api_key), 401);
    assert.equal(admitted(a.api_key), 401);
    assert.equal(admitted(b.api_key), b.key_id);
    assert.equal(admitted(a.api_key), 401);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
