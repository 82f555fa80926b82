/**
 * @module server/config-readers: the typed configuration error and the readers of one environment
 * variable each (integer in a range, boolean, one of a list, pattern, CIDR list). Every refusal is a
 * ConfigError naming the variable, the value given and the accepted values (issue 19, section 6).
 */
import ipaddr from 'ipaddr.js';

/** The environment as read (tests pass a plain object). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What a refused secret's value reads as in messages: secrets are never echoed (STYLE 6). */
export const HIDDEN_VALUE = '(hidden)';

/**
 * A configuration value the service refuses to start with. `variable` is the environment variable,
 * `value` what it was set to (`undefined` when a required variable is unset; HIDDEN_VALUE for
 * secrets), `accepted` the accepted values in words (`an integer from 1 to 256`, `true, false, 1 or
 * 0`). The message is the one line the service prints on stderr before exiting with status 1:
 * `LOG_LEVEL="verbose" is not accepted: expected one of fatal, error, …`.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    readonly value: string | undefined,
    readonly accepted: string,
  ) {
    super(
      value === undefined
        ? `${variable} is not set: expected ${accepted}`
        : `${variable}=${JSON.stringify(value)} is not accepted: expected ${accepted}`,
    );
  }
}

/** The value of `name`, or undefined when unset or empty (an empty variable means its default). */
export function raw(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** An integer in [min, max] (decimal digits only), `def` when unset. @throws ConfigError */
export function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = raw(env, name);
  if (v === undefined) return def;
  const n = /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(name, v, `an integer from ${min} to ${max}`);
  return n;
}

/** Accepted spellings of a boolean (lower-case only, as documented in docs/operations.md). */
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false };

/** `true`, `false`, `1` or `0`; `def` when unset. Anything else (`yes`, `on`, `TRUE`) is refused. @throws ConfigError */
export function bool(env: Env, name: string, def: boolean): boolean {
  const v = raw(env, name);
  if (v === undefined) return def;
  const b = BOOLEANS[v];
  if (b === undefined) throw new ConfigError(name, v, 'true, false, 1 or 0');
  return b;
}

/** One of `values`; `def` when unset. @throws ConfigError */
export function oneOf<const T extends string>(env: Env, name: string, values: readonly T[], def: T): T {
  const v = raw(env, name);
  if (v === undefined) return def;
  if (!(values as readonly string[]).includes(v)) throw new ConfigError(name, v, `one of ${values.join(', ')}`);
  return v as T;
}

/** A value matching `pattern`, described by `accepted`; `def` when unset. @throws ConfigError */
export function matching(env: Env, name: string, pattern: RegExp, accepted: string, def: string): string {
  const v = raw(env, name);
  if (v === undefined) return def;
  if (!pattern.test(v)) throw new ConfigError(name, v, accepted);
  return v;
}

/** An IP address literal or a DNS host name (a listener's address). */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A listen address: an IPv4 or IPv6 literal, or a host name; `def` when unset. @throws ConfigError */
export function host(env: Env, name: string, def: string): string {
  const v = raw(env, name);
  if (v === undefined) return def;
  if (!ipaddr.IPv4.isValidFourPartDecimal(v) && !ipaddr.IPv6.isValid(v) && !HOST_NAME.test(v))
    throw new ConfigError(name, v, 'an IPv4 or IPv6 address or a host name (0.0.0.0 for every interface)');
  return v;
}

/** Comma-separated IP addresses or CIDRs (`10.0.0.0/8, 2001:db8::/32`); empty when unset. @throws ConfigError naming the bad entry */
export function cidrs(env: Env, name: string): string[] {
  const list = (raw(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const ok = entry.includes('/') ? isCidr(entry) : ipaddr.isValid(entry);
    if (!ok)
      throw new ConfigError(
        name,
        entry,
        'comma-separated IPv4 or IPv6 addresses or CIDRs (e.g. 10.0.0.0/8,2001:db8::/32)',
      );
  }
  return list;
}

function isCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}
