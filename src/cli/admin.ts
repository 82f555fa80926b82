/**
 * @module cli/admin: the operator's admin CLI (`npm run admin -- <command>`). Works on the LMDB store
 * directly, with the server running or not (LMDB is shared between processes). Every command
 * accepts `--json` and then prints exactly one JSON object: the result on stdout, or an error
 * `{"error", "detail"}` on stderr (cli/admin-errors: codes and exit codes).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Permission } from '../model/records.js';
import { ALL_PERMISSIONS } from '../model/records.js';
import type { Store } from '../store/store.js';
import { openConfiguredStore } from '../store/open.js';
import { KeyService } from '../server/auth/keys.js';
import { loadServerSecrets } from '../server/auth/server-secrets.js';
import { loadConfig } from '../server/config.js';
import { parseCidrs } from '../server/pipeline/client-address.js';
import { importScenario } from '../actors/scenarios.js';
import { RETIRE_ROUND } from '../actors/evaluations.js';
import { rollupView } from '../api/views/rollup.js';
import { Users } from '../server/console/users.js';
import { passwordProblem } from '../server/console/password-policy.js';
import { DATE_TIME_RULE, parseDateTime } from '../model/rfc3339.js';
import { randomBytes } from 'node:crypto';
import { addBackupCommand } from './admin-backup.js';
import { example, JSON_HELP, print } from './admin-output.js';
import { CliError, exitCodesHelp, reportError, toCliError } from './admin-errors.js';

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

/** An RFC 3339 date-time (model/rfc3339), as UTC ISO text; anything else is a usage error. */
function isoTime(text: string): string {
  const t = parseDateTime(text);
  if (t === null) throw new InvalidArgumentError(`expected a time that ${DATE_TIME_RULE.replace(/^must be/, 'is')}`);
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

function notFound(message: string): never {
  throw new CliError('not_found', message);
}

/** Parses one CIDR of a variadic argument (validated at parse time: a bad one is a usage error). */
function cidr(value: string, previous: string[] | undefined): string[] {
  try {
    parseCidrs([value]);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  return [...(previous ?? []), value];
}

/** Output of the CLI, for `--json` runs that must print nothing but JSON. */
export interface CliOutput {
  /** Where commander writes the help it shows for a missing command (default stderr); `--json` runs pass a sink. */
  readonly writeErr?: (text: string) => void;
}

/**
 * Builds the CLI (exported for tests). Commander never exits the process: parse errors, `--help`
 * and `--version` are thrown as CommanderError and `runCli` turns them into exit codes.
 */
export function buildCli(output: CliOutput = {}): Command {
  const program = new Command('admin')
    .description('Governance Evaluation Service operator CLI (works on the store directly: DATA_DIR, or Redis)')
    .exitOverride()
    .configureOutput({
      outputError: () => undefined, // runCli prints every error itself (text or JSON)
      ...(output.writeErr ? { writeErr: output.writeErr } : {}),
    })
    .option('--store <backend>', 'lmdb (DATA_DIR, the default) or redis (REDIS_URL); overrides STORE')
    .option('--redis-url <url>', 'the Redis of --store redis; overrides REDIS_URL')
    .addHelpText(
      'after',
      `${example('orgs list --json', '--store redis --redis-url redis://10.0.0.5:6379 orgs list')}\n\nEnvironment: DATA_DIR, STORE, REDIS_URL, REDIS_PREFIX and the other server variables (docs/operations.md).\n\n${exitCodesHelp()}`,
    )
    .hook('preAction', () => {
      // The options stand for the server's environment variables, which loadConfig reads and checks.
      const o = program.opts<{ store?: string; redisUrl?: string }>();
      if (o.store !== undefined) process.env['STORE'] = o.store;
      if (o.redisUrl !== undefined) process.env['REDIS_URL'] = o.redisUrl;
    });
  const orgs = program
    .command('orgs')
    .description('organizations: create, list')
    .addHelpText('after', example('orgs create --name "Acme Ltd"', 'orgs list --json'));
  orgs
    .command('create')
    .description('create an organization and print its id')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('orgs create --name "Acme Ltd" --json'))
    .action(async (o: { name: string; json?: boolean }) => {
      const org = await withStore(({ keys }) => keys.createOrg(o.name));
      print(!!o.json, { org_id: org.org_id, name: org.name }, () => `created organization ${org.org_id} (${org.name})`);
    });
  orgs
    .command('list')
    .description('list every organization (id and name)')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('orgs list --json'))
    .action(async (o: { json?: boolean }) => {
      const list = await withStore(({ store }) => store.organizations.listOrgs());
      print(
        !!o.json,
        { orgs: list },
        () => list.map((x) => `${x.org_id}  ${x.name}`).join('\n') || '(no organizations)',
      );
    });

  const keysCmd = program
    .command('keys')
    .description('API keys: create, list, rotate, revoke, limits, permissions, allow-ips')
    .addHelpText('after', example('keys create --org org_1a2b3c --name ci', 'keys list --org org_1a2b3c'));
  keysCmd
    .command('create')
    .description('create an API key and its signing secret (printed once: store them now)')
    .requiredOption('--org <org_id>', 'the organization the key belongs to')
    .option('--name <name>', 'key name', 'default')
    .option('--permissions <list>', `comma-separated, default all (${ALL_PERMISSIONS.join(',')})`, permissions)
    .option(
      '--expires-at <time>',
      'expiry time, RFC 3339 with Z or an offset (2027-01-31T00:00:00Z); default never',
      isoTime,
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(
        'keys create --org org_1a2b3c --name ci --permissions governance:read,governance:evaluate --expires-at 2027-01-01T00:00:00Z --json',
      ),
    )
    .action(
      async (o: { org: string; name: string; permissions?: Permission[]; expiresAt?: string; json?: boolean }) => {
        const issued = await withStore(({ keys }) =>
          keys.createKey(o.org, {
            name: o.name,
            ...(o.permissions ? { permissions: o.permissions } : {}),
            expiresAt: o.expiresAt ?? null,
          }),
        );
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
    .description("list an organization's keys with state, permissions, limits and last use (never a secret)")
    .requiredOption('--org <org_id>', 'the organization whose keys to list')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys list --org org_1a2b3c --json'))
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
    .description('issue a new key with the same settings; the old one keeps working for --overlap, then expires')
    .argument('<key_id>', 'the key to rotate')
    .option('--overlap <duration>', 'how long the old key keeps working (90s, 30m, 24h, 7d)', parseDuration, 0)
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys rotate key_4f5e6d --overlap 24h --json'))
    .action(async (keyId: string, o: { overlap: number; json?: boolean }) => {
      const issued = await withStore(({ keys }) => keys.rotate(keyId, o.overlap));
      print(
        !!o.json,
        { key_id: issued.key_id, api_key: issued.api_key, signing_secret: issued.signing_secret, rotated_from: keyId },
        () => `new key ${issued.key_id}\napi_key         ${issued.api_key}\nsigning_secret  ${issued.signing_secret}`,
      );
    });
  keysCmd
    .command('revoke')
    .description('revoke a key at once (the running server refuses it within a second)')
    .argument('<key_id>', 'the key to revoke')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys revoke key_4f5e6d'))
    .action(async (keyId: string, o: { json?: boolean }) => {
      const key = await withStore(({ keys }) => keys.revoke(keyId));
      print(!!o.json, { key_id: key.key_id, revoked_at: key.revoked_at }, () => `revoked ${key.key_id}`);
    });
  keysCmd
    .command('limits')
    .description("set a key's rate limits (the options not given stay as they are)")
    .argument('<key_id>', 'the key to change')
    .option('--per-minute <n>', 'requests per clock minute', positiveInt)
    .option('--per-hour <n>', 'requests per clock hour', positiveInt)
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys limits key_4f5e6d --per-minute 120 --per-hour 5000'))
    .action(async (keyId: string, o: { perMinute?: number; perHour?: number; json?: boolean }) => {
      const key = await withStore(({ keys }) =>
        keys.update(keyId, {
          ...(o.perMinute ? { per_minute: o.perMinute } : {}),
          ...(o.perHour ? { per_hour: o.perHour } : {}),
        }),
      );
      print(
        !!o.json,
        { key_id: key.key_id, per_minute: key.per_minute, per_hour: key.per_hour },
        () => `${key.key_id}: ${key.per_minute}/min, ${key.per_hour}/h`,
      );
    });
  keysCmd
    .command('permissions')
    .description("replace a key's permissions (e.g. grant governance:manage to a key created before it existed)")
    .argument('<key_id>', 'the key to change')
    .argument('<list>', `comma-separated: ${ALL_PERMISSIONS.join(',')}`, permissions)
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys permissions key_4f5e6d governance:read,governance:evaluate'))
    .action(async (keyId: string, list: Permission[], o: { json?: boolean }) => {
      const key = await withStore(({ keys }) => keys.update(keyId, { permissions: list }));
      print(
        !!o.json,
        { key_id: key.key_id, permissions: key.permissions },
        () => `${key.key_id}: ${key.permissions.join(', ')}`,
      );
    });
  keysCmd
    .command('allow-ips')
    .description('restrict a key to client addresses (replaces the list; none allows any address)')
    .argument('<key_id>', 'the key to change')
    .argument('[cidrs...]', 'IPv4/IPv6 addresses or CIDRs; none clears the list', cidr)
    .option('--json', JSON_HELP)
    .addHelpText('after', example('keys allow-ips key_4f5e6d 10.0.0.0/8 2001:db8::/32', 'keys allow-ips key_4f5e6d'))
    .action(async (keyId: string, cidrs: string[] | undefined, o: { json?: boolean }) => {
      const key = await withStore(({ keys }) => keys.update(keyId, { allow_ips: cidrs ?? [] }));
      print(
        !!o.json,
        { key_id: key.key_id, allow_ips: key.allow_ips },
        () => `${key.key_id}: ${key.allow_ips.join(', ') || 'any address'}`,
      );
    });

  const scenarios = program
    .command('scenarios')
    .description('stored scenarios: import, list, delete')
    .addHelpText('after', example('scenarios import --org org_1a2b3c examples/', 'scenarios list --org org_1a2b3c'));
  scenarios
    .command('import')
    .description(
      'import a blueprint file, or every *.json of a directory, as stored scenarios (a new version each time)',
    )
    .requiredOption('--org <org_id>', 'the organization that owns the scenarios')
    .option('--id <scenario_id>', 'scenario id (default: file name without .blueprint.json/.json)')
    .argument('<path>', 'a blueprint file or a directory of them')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(
        'scenarios import --org org_1a2b3c --id 4417 ./leads.blueprint.json',
        'scenarios import --org org_1a2b3c ./blueprints/',
      ),
    )
    .action(async (path: string, o: { org: string; id?: string; json?: boolean }) => {
      const files = statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((f) => f.endsWith('.json') && f !== 'facts.json')
            .sort()
            .map((f) => join(path, f))
        : [path];
      if (o.id && files.length > 1) throw new CliError('usage', '--id needs a single file');
      const imported = await withStore(async ({ store }) => {
        if (!(await store.organizations.getOrg(o.org))) notFound(`organization ${o.org} not found`);
        const out: { scenario_id: string; name: string; version: number; file: string }[] = [];
        for (const file of files) {
          const id = o.id ?? basename(file).replace(/(\.blueprint)?\.json$/, '');
          try {
            const rec = await importScenario(store.scenarios, o.org, id, readFileSync(file, 'utf8'));
            out.push({ scenario_id: rec.scenario_id, name: rec.name, version: rec.version, file });
          } catch (e) {
            const failure = toCliError(e);
            throw new CliError(failure.code, `${file}: ${failure.message}`);
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
    .description("list an organization's stored scenarios (id, version, module count, name)")
    .requiredOption('--org <org_id>', 'the organization whose scenarios to list')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('scenarios list --org org_1a2b3c --json'))
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
    .description('delete a stored scenario (its results are no longer served)')
    .requiredOption('--org <org_id>', 'the organization that owns the scenario')
    .argument('<scenario_id>', 'the scenario to delete')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('scenarios delete --org org_1a2b3c 4417'))
    .action(async (id: string, o: { org: string; json?: boolean }) => {
      const deleted = await withStore(({ store }) => store.scenarios.delete(o.org, id, new Date().toISOString()));
      if (!deleted) notFound(`scenario ${id} not found`);
      print(!!o.json, { scenario_id: id, deleted: true }, () => `deleted ${id}`);
    });

  const usersCmd = program
    .command('users')
    .description('console operator accounts: create')
    .addHelpText('after', example('users create --org org_1a2b3c --email ops@example.com --role owner'));
  usersCmd
    .command('create')
    .description('create a console account (a random password is printed once unless --password is given)')
    .requiredOption('--org <org_id>', 'the organization the account belongs to')
    .requiredOption('--email <email>', 'sign-in e-mail address (unique)')
    .addOption(new Option('--role <role>', 'console role').choices(['owner', 'admin', 'member']).default('admin'))
    .option(
      '--password <password>',
      "initial password: 12 to 1,024 characters, not the account's e-mail, not a common password (default: a random one, printed once)",
    )
    .option('--json', JSON_HELP)
    .addHelpText('after', example('users create --org org_1a2b3c --email ops@example.com --role admin --json'))
    .action(
      async (o: {
        org: string;
        email: string;
        role: 'owner' | 'admin' | 'member';
        password?: string;
        json?: boolean;
      }) => {
        // Checked here, not by commander: its message for an invalid option value repeats the value.
        const refused = o.password === undefined ? null : await passwordProblem(o.password, o.email);
        if (refused) throw new CliError('usage', `--password ${refused}`);
        const password = o.password ?? randomBytes(18).toString('base64url');
        const user = await withStore(({ users }) => users.create(o.org, o.email, o.role, password));
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

  const evals = program
    .command('evaluations')
    .description('stored evaluations: delete, retire')
    .addHelpText('after', example('evaluations retire --days 30'));
  evals
    .command('delete')
    .description('delete one evaluation and its stored results')
    .argument('<evaluation_id>', 'the evaluation to delete')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('evaluations delete 0b7e8f0c-5d1a-4c1e-9d2b-3f4a5b6c7d8e'))
    .action(async (id: string, o: { json?: boolean }) => {
      const deleted = await withStore(({ store }) => store.evaluations.delete(id));
      if (!deleted) notFound(`evaluation ${id} not found`);
      print(!!o.json, { evaluation_id: id, deleted: true }, () => `deleted evaluation ${id}`);
    });
  evals
    .command('retire')
    .description(
      "delete stored evaluations that became terminal more than N days ago (each scenario's latest results stay)",
    )
    .requiredOption('--days <n>', 'retention in days', positiveInt)
    .option('--json', JSON_HELP)
    .addHelpText('after', example('evaluations retire --days 30 --json'))
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
    .description('organization rollups: rebuild')
    .addHelpText('after', example('rollup rebuild --org org_1a2b3c'))
    .command('rebuild')
    .description("recompute an organization's rollup from its stored results and store it")
    .requiredOption('--org <org_id>', 'the organization whose rollup to rebuild')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('rollup rebuild --org org_1a2b3c --json'))
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
    .description('leak tracing: show')
    .addHelpText('after', example('watermarks show wm_1a2b3c4d'))
    .command('show')
    .description('show which key and organization a response watermark was issued to, and on which day')
    .argument('<watermark>', 'a watermark as found in a response (wm_ and 8 hex digits)')
    .option('--json', JSON_HELP)
    .addHelpText('after', example('watermarks show wm_1a2b3c4d --json'))
    .action(async (wm: string, o: { json?: boolean }) => {
      const rec = await withStore(({ store }) => store.organizations.findWatermark(wm));
      if (!rec) notFound(`watermark ${wm} not found`);
      print(
        !!o.json,
        { watermark: wm, ...rec },
        () => `${wm}: key ${rec.key_id}, organization ${rec.org_id}, day ${rec.day}`,
      );
    });

  addBackupCommand(program);
  return program;
}

/** Whether the command line asks for JSON output (`--json` before any `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Runs the CLI on `argv` (process.argv form) and returns the exit code (cli/admin-errors
 * EXIT_CODES); every error, usage errors included, is printed once: text, or JSON with `--json`.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const json = wantsJson(argv);
  // With --json, commander's help-on-error text would be a second, non-JSON output: drop it.
  const program = buildCli(json ? { writeErr: () => undefined } : {});
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      if (e.code === 'commander.help')
        return reportError(new CliError('usage', 'a command is missing (see --help)'), json);
    }
    return reportError(toCliError(e), json);
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await runCli(process.argv);
}
