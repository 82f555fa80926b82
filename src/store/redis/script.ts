/**
 * @module store/redis/script: runs the backend's Lua scripts. One script per atomic operation
 * (PITFALLS 34, BullMQ's layout): Redis runs a script alone, so its reads and writes form one
 * transaction across every process and node, without WATCH retry loops. Scripts name every key they
 * touch in KEYS (Redis Cluster runs a script only on keys it declares). A script is sent by its SHA1
 * (EVALSHA) and its source only once per server start (EVAL after the server answered NOSCRIPT).
 *
 * Redis does not roll a script back when it fails halfway: each script first reads and decides, and
 * writes only after every check passed (the writes themselves cannot fail on well-formed data).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * An optimistic write (read, decide, run a script that writes only if what was read is unchanged)
 * that conflicted with other writers on every one of its attempts. Nothing was written.
 */
export class CommitContentionError extends Error {
  override readonly name = 'CommitContentionError';
  readonly code = 'commit_contention';
}

/** A Lua script and its SHA1. */
export interface LuaScript {
  /** Shown in errors. */
  readonly name: string;
  readonly source: string;
  readonly sha: string;
}

/** An argument of a script: strings, bytes (binary-safe) or numbers. */
export type ScriptArg = string | Buffer | Uint8Array | number;

/** Declares a script (hashed once). */
export function luaScript(name: string, source: string): LuaScript {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

/** One run of a script: what `runScript` takes, as a value (to run it inside a caller's transaction). */
export interface ScriptCall {
  readonly script: LuaScript;
  readonly keys: readonly string[];
  readonly args: readonly ScriptArg[];
}

/**
 * Defines `script` as a command of the connection `redis` (ioredis `defineCommand`, once per
 * connection and script), so that a `MULTI` of that connection can run it: ioredis sends the source
 * (EVAL) the first time on each socket and the SHA1 (EVALSHA) after, so a transaction never meets
 * NOSCRIPT halfway (a server restart is a new socket). Define it before creating the transaction
 * (an ioredis pipeline copies the connection's commands when it is made).
 * @returns the command's name, for `runCommand(name, scriptCallArgs(call))` of BullMQ's transactions.
 */
export function defineScriptCommand(redis: Redis, script: LuaScript): string {
  const name = `gov-${script.name}-${script.sha.slice(0, 12)}`;
  if (!(name in redis.scriptsSet)) redis.defineCommand(name, { lua: script.source });
  return name;
}

/** The arguments of a command made by `defineScriptCommand`: the key count, the keys, then the arguments. */
export function scriptCallArgs(call: ScriptCall): (string | Buffer | number)[] {
  return [call.keys.length, ...call.keys, ...call.args.map(toArg)];
}

/** The protocol's error code of a reply error: its first word (`NOSCRIPT No matching script.`). */
function replyCode(error: unknown): string | undefined {
  return error instanceof Error ? error.message.split(' ', 1)[0] : undefined;
}

function toArg(a: ScriptArg): string | Buffer | number {
  return a instanceof Uint8Array && !Buffer.isBuffer(a) ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : a;
}

/**
 * Runs `script` with `keys` and `args`. Bulk replies come back as strings, or as Buffers with `binary`.
 * @returns the script's reply (its shape is the caller's: each script documents it).
 * @throws the server's reply error (a failing script), or ioredis' connection errors (Redis down).
 */
export async function runScript(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly ScriptArg[],
  binary = false,
): Promise<unknown> {
  const params = [keys.length, ...keys, ...args.map(toArg)];
  // ioredis generates `<command>Buffer` methods for every command but does not declare the binary
  // ones of EVAL/EVALSHA; `callBuffer` cannot be used instead: with auto-pipelining it drops the command name.
  const r = redis as unknown as Scripting;
  const send = (command: 'evalsha' | 'eval', head: string): Promise<unknown> =>
    r[binary ? (`${command}Buffer` as const) : command](head, ...params);
  try {
    return await send('evalsha', script.sha);
  } catch (error) {
    if (replyCode(error) !== 'NOSCRIPT') throw error;
    return send('eval', script.source);
  }
}

/** EVAL and EVALSHA as ioredis has them at run time, with string or (`…Buffer`) binary replies. */
type Scripting = Record<
  'evalsha' | 'eval' | 'evalshaBuffer' | 'evalBuffer',
  (head: string, ...params: (string | Buffer | number)[]) => Promise<unknown>
>;
