/**
 * @module cli/admin: the operator's admin CLI (`npm run admin -- <command>`). Works on the LMDB store
 * directly, with the server running or not (LMDB is shared between processes). Every command
 * accepts `--json` and then prints exactly one JSON object.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Permission } from '../model/records.js';
import { ALL_PERMISSIONS } from '../model/records.js';
import type { Store } from '../store/store.js';
import { openConfiguredStore } from '../store/open.js';
import { KeyService } from '../server/auth/keys.js';
import { loadServerSecrets } from '../server/auth/server-secrets.js';
import { loadConfig } from '../server/config.js';
import { parseCidrs } from '../server/pipeline/client-address.js';
import { ImportError, importScenario } from '../actors/scenarios.js';
import { RETIRE_ROUND } from '../actors/evaluations.js';
import { rollupView } from '../api/views/rollup.js';
import { Users } from '../server/console/users.js';
import { randomBytes } from 'node:crypto';

/** Parses a duration like `24h`, `30m`, `90s`, `7d` into milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError('expected a duration such as 90s, 30m, 24h or 7d');
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function permissions(text: string): Permission[] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of list)
    if (!ALL_PERMISSIONS.includes(p as Permission))
      throw new InvalidArgumentError(`unknown permission ${p} (known: ${ALL_PERMISSIONS.join(', ')})`);
  return list as Permission[];
}

function isoTime(text: string): string {
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new InvalidArgumentError('expected an ISO 8601 time');
  return new Date(t).toISOString();
}

interface Ctx {
  store: Store;
  keys: KeyService;
  users: Users;
}

/** Opens the store for one command and closes it afterwards. */
async function withStore<T>(fn: (ctx: Ctx) => Promise<T> | T): Promise<T> {
  const config = loadConfig();
  const { store } = await openConfiguredStore(config);
  try {
    return await fn({
      store,
      keys: new KeyService(store.organizations, loadServerSecrets(config.dataDir, config.secretsEnv), config.keyPrefix),
      users: new Users(store.consoleAccounts, store.organizations, config.keyPrefix),
    });
  } finally {
    await store.close();
  }
}

/** Prints `value` as one JSON object with `--json`, else as readable text. */
function print(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** Builds the CLI (exported for tests). */
export function buildCli(): Command {
  const program = new Command('admin')
    .description('Governance Evaluation Service operator CLI (works on the store directly: DATA_DIR, or Redis)')
    .option('--store <backend>', 'lmdb (DATA_DIR, the default) or redis (REDIS_URL); overrides STORE')
    .option('--redis-url <url>', 'the Redis of --store redis; overrides REDIS_URL')
    .hook('preAction', () => {
      // The options stand for the server's environment variables, which loadConfig reads and checks.
      const o = program.opts<{ store?: string; redisUrl?: string }>();
      if (o.store !== undefined) process.env['STORE'] = o.store;
      if (o.redisUrl !== undefined) process.env['REDIS_URL'] = o.redisUrl;
    });
  const orgs = program.command('orgs').description('organizations');
  orgs
    .command('create')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print JSON')
    .action(async (o: { name: string; json?: boolean }) => {
      const org = await withStore(({ keys }) => keys.createOrg(o.name));
      print(!!o.json, { org_id: org.org_id, name: org.name }, () => `created organization ${org.org_id} (${org.name})`);
    });
  orgs
    .command('list')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const list = await withStore(({ store }) => store.organizations.listOrgs());
      print(
        !!o.json,
        { orgs: list },
        () => list.map((x) => `${x.org_id}  ${x.name}`).join('\n') || '(no organizations)',
      );
    });

  const keysCmd = program.command('keys').description('API keys');
  keysCmd
    .command('create')
    .requiredOption('--org <org_id>')
    .option('--name <name>', 'key name', 'default')
    .option('--permissions <list>', `comma-separated, default all (${ALL_PERMISSIONS.join(',')})`, permissions)
    .option('--expires-at <iso>', 'expiry time', isoTime)
    .option('--json', 'print JSON')
    .action(
      async (o: { org: string; name: string; permissions?: Permission[]; expiresAt?: string; json?: boolean }) => {
        const issued = await withStore(({ keys }) =>
          keys.createKey(o.org, {
            name: o.name,
            ...(o.permissions ? { permissions: o.permissions } : {}),
            expiresAt: o.expiresAt ?? null,
          }),
        ).catch((e: Error) => fail(e.message));
        print(
          !!o.json,
          { key_id: issued.key_id, api_key: issued.api_key, signing_secret: issued.signing_secret },
          () =>
            `key_id          ${issued.key_id}\napi_key         ${issued.api_key}\nsigning_secret  ${issued.signing_secret}\n(shown once: store them now)`,
        );
      },
    );
  keysCmd
    .command('list')
    .requiredOption('--org <org_id>')
    .option('--json', 'print JSON')
    .action(async (o: { org: string; json?: boolean }) => {
      const list = await withStore(async ({ keys }) => {
        const records = await keys.list(o.org);
        const used = await keys.lastUsed(records.map((key) => key.key_id));
        return records.map((key) => {
          const at = used.get(key.key_id);
          return {
            ...key,
            hash: undefined,
            state: keys.state(key, Date.now()).ok ? 'active' : key.revoked_at ? 'revoked' : 'expired',
            // As stored: up to KEY_USE_FLUSH_MS behind the server's last request with the key.
            last_used_at: at === undefined ? null : new Date(at).toISOString(),
          };
        });
      });
      print(
        !!o.json,
        { keys: list },
        () =>
          list
            .map(
              (x) =>
                `${x.key_id}  ${x.display_prefix}  ${x.state}  ${x.permissions.join(',')}  ${x.per_minute}/min ${x.per_hour}/h  last used ${x.last_used_at ?? 'never'}`,
            )
            .join('\n') || '(no keys)',
      );
    });
  keysCmd
    .command('rotate')
    .argument('<key_id>')
    .option('--overlap <duration>', 'how long the old key keeps working', parseDuration, 0)
    .option('--json', 'print JSON')
    .action(async (keyId: string, o: { overlap: number; json?: boolean }) => {
      const issued = await withStore(({ keys }) => keys.rotate(keyId, o.overlap)).catch((e: Error) => fail(e.message));
      print(
        !!o.json,
        { key_id: issued.key_id, api_key: issued.api_key, signing_secret: issued.signing_secret, rotated_from: keyId },
        () => `new key ${issued.key_id}\napi_key         ${issued.api_key}\nsigning_secret  ${issued.signing_secret}`,
      );
    });
  keysCmd
    .command('revoke')
    .argument('<key_id>')
    .option('--json', 'print JSON')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withStore(({ keys }) => keys.revoke(keyId)).catch((e: Error) => fail(e.message));
      print(!!o.json, { key_id: key.key_id, revoked_at: key.revoked_at }, () => `revoked ${key.key_id}`);
    });
  keysCmd
    .command('limits')
    .argument('<key_id>')
    .option('--per-minute <n>', 'requests per clock minute', positiveInt)
    .option('--per-hour <n>', 'requests per clock hour', positiveInt)
    .option('--json', 'print JSON')
    .action(async (keyId: string, o: { perMinute?: number; perHour?: number; json?: boolean }) => {
      const key = await withStore(({ keys }) =>
        keys.update(keyId, {
          ...(o.perMinute ? { per_minute: o.perMinute } : {}),
          ...(o.perHour ? { per_hour: o.perHour } : {}),
        }),
      ).catch((e: Error) => fail(e.message));
      print(
        !!o.json,
        { key_id: key.key_id, per_minute: key.per_minute, per_hour: key.per_hour },
        () => `${key.key_id}: ${key.per_minute}/min, ${key.per_hour}/h`,
      );
    });
  keysCmd
    .command('permissions')
    .description("replace a key's permissions (e.g. grant governance:manage to a key created before it existed)")
    .argument('<key_id>')
    .argument('<list>', `comma-separated: ${ALL_PERMISSIONS.join(',')}`, permissions)
    .option('--json', 'print JSON')
    .action(async (keyId: string, list: Permission[], o: { json?: boolean }) => {
      const key = await withStore(({ keys }) => keys.update(keyId, { permissions: list })).catch((e: Error) =>
        fail(e.message),
      );
      print(
        !!o.json,
        { key_id: key.key_id, permissions: key.permissions },
        () => `${key.key_id}: ${key.permissions.join(', ')}`,
      );
    });
  keysCmd
    .command('allow-ips')
    .argument('<key_id>')
    .argument('[cidrs...]', 'IPv4/IPv6 CIDRs; none clears the list')
    .option('--json', 'print JSON')
    .action(async (keyId: string, cidrs: string[], o: { json?: boolean }) => {
      try {
        parseCidrs(cidrs);
      } catch (e) {
        fail((e as Error).message);
      }
      const key = await withStore(({ keys }) => keys.update(keyId, { allow_ips: cidrs })).catch((e: Error) =>
        fail(e.message),
      );
      print(
        !!o.json,
        { key_id: key.key_id, allow_ips: key.allow_ips },
        () => `${key.key_id}: ${key.allow_ips.join(', ') || 'any address'}`,
      );
    });

  const scenarios = program.command('scenarios').description('stored scenarios');
  scenarios
    .command('import')
    .requiredOption('--org <org_id>')
    .option('--id <scenario_id>', 'scenario id (default: file name without .blueprint.json/.json)')
    .argument('<path>', 'a blueprint file or a directory of them')
    .option('--json', 'print JSON')
    .action(async (path: string, o: { org: string; id?: string; json?: boolean }) => {
      const files = statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((f) => f.endsWith('.json') && f !== 'facts.json')
            .sort()
            .map((f) => join(path, f))
        : [path];
      if (o.id && files.length > 1) fail('--id needs a single file');
      const imported = await withStore(async ({ store }) => {
        if (!store.organizations.getOrg(o.org)) fail(`organization ${o.org} not found`);
        const out: { scenario_id: string; name: string; version: number; file: string }[] = [];
        for (const file of files) {
          const id = o.id ?? basename(file).replace(/(\.blueprint)?\.json$/, '');
          try {
            const rec = await importScenario(store.scenarios, o.org, id, readFileSync(file, 'utf8'));
            out.push({ scenario_id: rec.scenario_id, name: rec.name, version: rec.version, file });
          } catch (e) {
            fail(`${file}: ${e instanceof ImportError ? `${e.message} at ${e.pointer || '/'}` : (e as Error).message}`);
          }
        }
        return out;
      });
      print(!!o.json, { imported }, () =>
        imported.map((s) => `imported ${s.scenario_id} v${s.version} (${s.name})`).join('\n'),
      );
    });
  scenarios
    .command('list')
    .requiredOption('--org <org_id>')
    .option('--json', 'print JSON')
    .action(async (o: { org: string; json?: boolean }) => {
      const list = await withStore(({ store }) => store.scenarios.list(o.org));
      print(
        !!o.json,
        { scenarios: list },
        () =>
          list.map((s) => `${s.scenario_id}  v${s.version}  ${s.module_count} modules  ${s.name}`).join('\n') ||
          '(no scenarios)',
      );
    });
  scenarios
    .command('delete')
    .requiredOption('--org <org_id>')
    .argument('<scenario_id>')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { org: string; json?: boolean }) => {
      const deleted = await withStore(({ store }) => store.scenarios.delete(o.org, id, new Date().toISOString()));
      if (!deleted) fail(`scenario ${id} not found`);
      print(!!o.json, { scenario_id: id, deleted: true }, () => `deleted ${id}`);
    });

  const usersCmd = program.command('users').description('console operator accounts');
  usersCmd
    .command('create')
    .requiredOption('--org <org_id>')
    .requiredOption('--email <email>')
    .addOption(new Option('--role <role>', 'console role').choices(['owner', 'admin', 'member']).default('admin'))
    .option('--password <password>', 'initial password (default: a random one, printed once)')
    .option('--json', 'print JSON')
    .action(
      async (o: {
        org: string;
        email: string;
        role: 'owner' | 'admin' | 'member';
        password?: string;
        json?: boolean;
      }) => {
        const password = o.password ?? randomBytes(18).toString('base64url');
        const user = await withStore(({ users }) => users.create(o.org, o.email, o.role, password)).catch((e: Error) =>
          fail(e.message),
        );
        print(
          !!o.json,
          {
            user_id: user.user_id,
            org_id: user.org_id,
            email: user.email,
            role: user.role,
            ...(o.password ? {} : { password }),
          },
          () =>
            `created ${user.role} ${user.email} (${user.user_id})${o.password ? '' : `\npassword: ${password} (shown once)`}`,
        );
      },
    );

  const evals = program.command('evaluations').description('evaluations');
  evals
    .command('delete')
    .argument('<evaluation_id>')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const deleted = await withStore(({ store }) => store.evaluations.delete(id));
      if (!deleted) fail(`evaluation ${id} not found`);
      print(!!o.json, { evaluation_id: id, deleted: true }, () => `deleted evaluation ${id}`);
    });
  evals
    .command('retire')
    .description(
      "delete stored evaluations that became terminal more than N days ago (each scenario's latest results stay)",
    )
    .requiredOption('--days <n>', 'retention in days', positiveInt)
    .option('--json', 'print JSON')
    .action(async (o: { days: number; json?: boolean }) => {
      const before = Date.now() - o.days * 86_400_000;
      const deleted = await withStore(async ({ store }) => {
        // Rounds of bounded work, as the server's periodic purge; no actor of this process owns an evaluation.
        let total = 0;
        let round: number;
        do {
          round = await store.evaluations.purgeRetired(before, () => false, RETIRE_ROUND);
          total += round;
        } while (round === RETIRE_ROUND);
        return total;
      });
      print(
        !!o.json,
        { retired_before: new Date(before).toISOString(), deleted },
        () => `deleted ${deleted} evaluations that became terminal before ${new Date(before).toISOString()}`,
      );
    });

  program
    .command('rollup')
    .description('organization rollups')
    .command('rebuild')
    .requiredOption('--org <org_id>')
    .option('--json', 'print JSON')
    .action(async (o: { org: string; json?: boolean }) => {
      const view = await withStore(async ({ store }) =>
        rollupView(await store.results.rebuildRollup(o.org, new Date().toISOString())),
      );
      print(
        !!o.json,
        view,
        () =>
          `rebuilt: ${String(view['scenarios_evaluated'])}/${String(view['scenarios_total'])} scenarios evaluated, score ${String(view['score'])}`,
      );
    });

  program
    .command('watermarks')
    .description('leak tracing')
    .command('show')
    .argument('<watermark>')
    .option('--json', 'print JSON')
    .action(async (wm: string, o: { json?: boolean }) => {
      const rec = await withStore(({ store }) => store.organizations.findWatermark(wm));
      if (!rec) fail(`watermark ${wm} not found`);
      print(
        !!o.json,
        { watermark: wm, ...rec },
        () => `${wm}: key ${rec.key_id}, organization ${rec.org_id}, day ${rec.day}`,
      );
    });
  return program;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  buildCli()
    .parseAsync(process.argv)
    .catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
}
