/**
 * Issue 18 "Done when": a new user runs the service as `npm start` does (the real process, a fresh
 * DATA_DIR, first start), opens /console/, signs in with the owner account whose password is in
 * bootstrap.json, manages keys and reads the fleet, without the CLI.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceProcess } from '../helpers/process.js';

interface Bootstrap {
  readonly org_id: string;
  readonly scenario_ids: readonly string[];
  readonly console: { readonly path: string; readonly email: string; readonly password: string };
}

describe('first start: the console with the owner account of bootstrap.json', () => {
  let root: string;
  let svc: ServiceProcess;
  let creds: Bootstrap;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'gov-first-start-'));
    svc = await startService({ DATA_DIR: join(root, 'data'), BOOTSTRAP_DEMO: 'true' });
    creds = JSON.parse(readFileSync(join(root, 'data', 'bootstrap.json'), 'utf8')) as Bootstrap;
  });
  after(async () => {
    await svc.stop('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the console, signs the owner in, and lets them create a key and read the fleet', async () => {
    assert.equal(creds.console.path, '/console/');
    assert.ok(svc.output.includes(`http://127.0.0.1:${svc.port}/console/`), 'the start line names the console');
    assert.ok(!svc.output.includes(creds.console.password), 'the password never goes to a pipe');
    const page = await fetch(`${svc.baseUrl}/console/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" [^>]*src="\/console\/assets\//);

    const signIn = await fetch(`${svc.baseUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: creds.console.email, password: creds.console.password }),
    });
    assert.equal(signIn.status, 200);
    const session = ((await signIn.json()) as { data: { session_token: string; user: { role: string } } }).data;
    assert.equal(session.user.role, 'owner');
    const auth = { authorization: `Bearer ${session.session_token}`, 'content-type': 'application/json' };

    const key = await fetch(`${svc.baseUrl}/api/v1/keys`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ org_id: creds.org_id, name: 'ci' }),
    });
    assert.equal(key.status, 201);
    const keys = await fetch(`${svc.baseUrl}/api/v1/keys?org_id=${creds.org_id}`, { headers: auth });
    assert.deepEqual(
      ((await keys.json()) as { data: { keys: { name: string }[] } }).data.keys.map((k) => k.name).sort(),
      ['ci', 'demo'],
    );
    const list = await fetch(`${svc.baseUrl}/api/v1/scenarios`, { headers: auth });
    assert.equal(list.status, 200);
    const ids = ((await list.json()) as { data: { scenarios: { scenario_id: string }[] } }).data.scenarios.map(
      (s) => s.scenario_id,
    );
    assert.deepEqual([...ids].sort(), [...creds.scenario_ids].sort(), 'the example scenarios are listed');
    const overview = await fetch(`${svc.baseUrl}/api/v1/overview`, { headers: auth });
    assert.equal(overview.status, 200);
  });
});
