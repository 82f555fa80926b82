/**
 * Stores written by the release before the fleet read model (issue 31, item 8; the fixture
 * test/fixtures/store-0b08f69, how it was made in its README), LMDB and Redis, opened by the
 * current server: the console's overview counts the scenarios by worst badge as its scenario list
 * shows them, `unknown` ones included, without `admin rollup rebuild`. On LMDB the console's pages
 * (in Debian's Chromium, as in test/helpers/console-browser.ts) show the `unknown` count, badge and
 * filter too.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { chromium } from 'playwright-core';
import { send } from '../../src/client/client.js';
import type { Failure } from '../../src/client/responses.js';
import type { FleetRow } from '../../src/store/fleet/repository.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { redisClusterEnv } from '../helpers/redis-env.js';
import { dataOf } from '../helpers/assertions.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/store-0b08f69/');
const ORGS = JSON.parse(readFileSync(join(FIXTURE, 'fixture.json'), 'utf8')) as {
  lmdb_org_id: string;
  redis_org_id: string;
};
const EMAIL = 'auditor@upgrade.test';
const PASSWORD = 'a long enough password';
/** What the fixture's scenarios show in the list: their worst badges (README). */
const LISTED = {
  'clean-1': 'clean',
  'critical-1': 'critical',
  'unknown-1': 'unknown',
  'unknown-2': 'unknown',
  'never-1': null,
};

type ConsoleReply<T> = { readonly ok: true; readonly data: T } | Failure;
interface Overview {
  readonly rollup: { readonly scenarios_total: number; readonly scenarios_evaluated: number };
  readonly badges: Readonly<Record<string, number>>;
}
interface ScenarioList {
  readonly scenarios: FleetRow[];
  readonly next_cursor: string | null;
}

/** Restores the Redis fixture's keys under `prefix` (the DUMP payloads of Redis 7). */
async function restoreRedisFixture(url: string, prefix: string): Promise<void> {
  const keys = JSON.parse(readFileSync(join(FIXTURE, 'redis-keys.json'), 'utf8')) as {
    key: string;
    ttl_ms: number;
    dump: string;
  }[];
  const redis = new Redis(url);
  try {
    for (const k of keys)
      await redis.restore(`${prefix}${k.key}`, Math.max(0, k.ttl_ms), Buffer.from(k.dump, 'base64'));
  } finally {
    redis.disconnect();
  }
}

/** A console member's session token in `orgId`. */
async function signIn(t: TestServer, orgId: string): Promise<string> {
  await t.server.users.create(orgId, EMAIL, 'member', PASSWORD);
  const session = await send<ConsoleReply<{ session_token: string }>>(
    new URL('/api/v1/session', t.baseUrl),
    'POST',
    { 'content-type': 'application/json' },
    JSON.stringify({ email: EMAIL, password: PASSWORD }),
  );
  return dataOf(session).session_token;
}

for (const backend of ['lmdb', 'redis'] as const) {
  describe(`a ${backend} store of the release before the fleet read model, opened by this one`, () => {
    let dataDir: string;
    let t: TestServer;
    let token: string;
    const read = async <T>(path: string): Promise<T> =>
      dataOf(
        await send<ConsoleReply<T>>(
          new URL(`/api/v1${path}`, t.baseUrl),
          'GET',
          { authorization: `Bearer ${token}` },
          '',
        ),
      );

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'gov-upgrade-'));
      if (backend === 'lmdb') {
        copyFileSync(join(FIXTURE, 'gov.mdb'), join(dataDir, 'gov.mdb'));
        t = await startTestServer({ dataDir });
      } else {
        const env = await redisClusterEnv();
        await restoreRedisFixture(env['REDIS_URL']!, env['REDIS_PREFIX']!);
        t = await startTestServer({ dataDir, env });
      }
      token = await signIn(t, backend === 'lmdb' ? ORGS.lmdb_org_id : ORGS.redis_org_id);
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('counts the scenarios by worst badge as the scenario list shows them', async () => {
      const rows: FleetRow[] = [];
      for (let cursor: string | null = ''; cursor !== null;) {
        const page: ScenarioList = await read<ScenarioList>(
          `/scenarios?sort=name&limit=2${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        rows.push(...page.scenarios);
        cursor = page.next_cursor;
      }
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.scenario_id, r.badge])), LISTED, 'the scenario list');
      const listed: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0, clean: 0 };
      for (const r of rows) listed[r.badge ?? 'not_evaluated'] = (listed[r.badge ?? 'not_evaluated'] ?? 0) + 1;

      const overview = await read<Overview>('/overview');
      assert.deepEqual(overview.badges, listed, 'the overview counts what the list shows');
      assert.equal(overview.rollup.scenarios_total, rows.length);
      assert.equal(overview.rollup.scenarios_evaluated, rows.filter((r) => r.badge !== null).length);
      const unknown = await read<ScenarioList>('/scenarios?badge=unknown');
      assert.deepEqual(unknown.scenarios.map((r) => r.scenario_id).sort(), ['unknown-1', 'unknown-2']);
    });

    if (backend === 'lmdb')
      it('shows the unknown ones in the console: counted on the overview, badged and filtered in the list', async () => {
        execFileSync('bash', [join(ROOT, 'scripts/ensure-chromium.sh')], { stdio: 'ignore' });
        const browser = await chromium.launch({
          executablePath: '/usr/bin/chromium',
          headless: true,
          args: ['--no-sandbox'],
        });
        try {
          const page = await browser.newPage({ baseURL: t.baseUrl });
          page.setDefaultTimeout(10_000);
          const errors: string[] = [];
          page.on('pageerror', (err) => errors.push(err.message));
          await page.goto('/console/');
          await page.getByLabel('Email').fill(EMAIL);
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Sign in' }).click();
          const nav = page.getByRole('navigation', { name: 'Main' });
          await nav.waitFor();
          await page.getByRole('heading', { name: 'Scenarios by worst badge' }).waitFor();
          const count = (badge: string) =>
            page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: badge, exact: true }) });
          assert.equal(await count('unknown').getByRole('cell').textContent(), '2');
          assert.equal(await count('critical').getByRole('cell').textContent(), '1');

          await nav.getByRole('link', { name: 'Scenarios' }).click();
          await page.getByLabel('Worst badge').selectOption('unknown');
          await page.getByRole('status').getByText('2 scenarios match').waitFor();
          assert.equal(await page.locator('tbody .badge-unknown').count(), 2);
          // Visible: its own style (before, an unstyled badge was white text on the white page).
          assert.equal(
            await page.evaluate<string>(
              "getComputedStyle(document.querySelector('tbody .badge-unknown')).borderTopStyle",
            ),
            'dashed',
          );
          assert.deepEqual(errors, [], 'no uncaught error');
        } finally {
          await browser.close();
        }
      });
  });
}
