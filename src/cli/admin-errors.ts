/**
 * @module cli/admin-errors: the admin CLI's error codes and exit codes (one table, documented in
 * docs/operations.md "Admin CLI" and in `admin --help`; a test keeps the three in step), and how a
 * failure is printed: `error: <detail>` on stderr, or with `--json` one JSON object
 * `{"error": <code>, "detail": <text>}` on stderr. Standard output carries results only.
 */
import { CommanderError } from 'commander';
import { ImportError } from '../actors/scenarios.js';
import { KeyError } from '../server/auth/keys.js';
import { ConfigError } from '../server/config.js';
import { UserError } from '../server/console/users.js';
import { BackupError } from '../store/backup.js';
import { DataDirPermissionError } from '../store/data-dir.js';
import { RedisSettingsError } from '../store/redis/settings.js';
import { isRedisUnavailableError } from '../store/redis/unavailable.js';

/** Exit codes of the admin CLI (sysexits-like in spirit, kept small). */
export const EXIT_CODES = {
  ok: { code: 0, meaning: 'the command succeeded' },
  failed: { code: 1, meaning: 'the operation failed or was refused (not found, conflict, invalid file, I/O error)' },
  usage: { code: 2, meaning: 'usage error: unknown command or option, missing or invalid argument or option value' },
  environment: {
    code: 3,
    meaning: 'configuration or environment error: a bad environment variable, DATA_DIR unusable, store unreachable',
  },
} as const;

/** Error codes printed as `error` with `--json`, each with its exit code. Codes are stable and never reused. */
export const CLI_ERRORS = {
  usage: { exit: 'usage', meaning: "the command line is wrong (see the command's --help)" },
  not_found: { exit: 'failed', meaning: 'a named organization, key, scenario, evaluation or watermark does not exist' },
  conflict: { exit: 'failed', meaning: 'the record is in a state that forbids the change (key revoked, e-mail taken)' },
  invalid_input: { exit: 'failed', meaning: 'a file given to the command is invalid (blueprint import)' },
  destination_not_empty: { exit: 'failed', meaning: 'the backup destination exists and is not an empty directory' },
  failed: { exit: 'failed', meaning: 'any other failure of the operation (store or file-system error)' },
  configuration: {
    exit: 'environment',
    meaning: 'an environment variable is invalid, DATA_DIR is unusable or holds no store, the store is unreachable',
  },
  unsupported_backend: {
    exit: 'environment',
    meaning: 'the command does not work on the configured store (backup with STORE=redis)',
  },
} as const satisfies Record<string, { exit: keyof typeof EXIT_CODES; meaning: string }>;

/** An error code of the admin CLI. */
export type CliErrorCode = keyof typeof CLI_ERRORS;

/** A failure of a command, with its code; the message is for people. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: CliErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The exit code of an error code. */
export function exitCodeOf(code: CliErrorCode): number {
  return EXIT_CODES[CLI_ERRORS[code].exit].code;
}

const KEY_CODES: Readonly<Record<KeyError['code'], CliErrorCode>> = {
  organization_not_found: 'not_found',
  key_not_found: 'not_found',
  key_revoked: 'conflict',
  key_inactive: 'conflict',
};

/** Maps anything a command threw to a CliError (typed errors by class and code, never by message). */
export function toCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof CommanderError) return new CliError('usage', e.message.replace(/^error: /, ''));
  if (e instanceof KeyError) return new CliError(KEY_CODES[e.code], e.message);
  if (e instanceof UserError)
    return new CliError(e.code === 'organization_not_found' ? 'not_found' : 'conflict', e.message);
  if (e instanceof ImportError) return new CliError('invalid_input', `${e.message} at ${e.pointer || '/'}`);
  if (e instanceof BackupError) return new CliError(e.code === 'no_store' ? 'configuration' : e.code, e.message);
  if (e instanceof ConfigError || e instanceof DataDirPermissionError || e instanceof RedisSettingsError)
    return new CliError('configuration', e.message);
  if (isRedisUnavailableError(e))
    return new CliError('configuration', `the Redis of REDIS_URL cannot be reached (${(e as Error).message})`);
  return new CliError('failed', e instanceof Error ? e.message : String(e));
}

/** Prints a failure (text or one JSON object, on stderr) and returns the exit code. */
export function reportError(error: CliError, json: boolean): number {
  process.stderr.write(
    json ? `${JSON.stringify({ error: error.code, detail: error.message })}\n` : `error: ${error.message}\n`,
  );
  return exitCodeOf(error.code);
}

/** The exit-code section of `admin --help`. */
export function exitCodesHelp(): string {
  const rows = Object.values(EXIT_CODES).map((x) => `  ${x.code}  ${x.meaning}`);
  return `Exit codes:\n${rows.join('\n')}\nWith --json, an error is one JSON object on stderr: {"error": "<code>", "detail": "<text>"}\n(codes: ${Object.keys(CLI_ERRORS).join(', ')}; docs/operations.md "Admin CLI").`;
}
