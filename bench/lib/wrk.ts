/**
 * @module bench/lib/wrk: wrk with a request file. Every request is pre-signed and unique (a nonce
 * query parameter and its own `X-Service-Signature`, signed within the 300 s tolerance just before
 * the run), so the load generator does no HMAC work and is not the bottleneck. With `rate`, requests
 * follow a fixed schedule (open loop, like wrk2's -R) rather than wrk's closed loop.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signRequest } from '@gov/sdk';
import { forget, killAtExit, removeAtExit } from './cleanup.js';

const LUA = `
-- Requests are two flat string arrays (no per-request tables), and the collector is stopped once
-- they are loaded: a full GC over millions of entries would stall wrk and pollute the latencies.
-- args: requests file, Authorization value, method, body file ("" for none), rate per second (0 = as fast as possible).
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } gov_timespec;
int clock_gettime(int clk_id, gov_timespec *tp);
]]
local ts = ffi.new("gov_timespec")
local function nowMs()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end
local paths, sigs = {}, {}
local n, i = 0, 0
local auth, method, body = nil, "GET", nil
local interval, nextAt = 0, nil
init = function(args)
  auth = args[2]
  method = args[3] or "GET"
  if args[4] and args[4] ~= "" then
    local f = io.open(args[4], "rb")
    body = f:read("*a")
    f:close()
  end
  -- Paced runs (rate > 0) follow a fixed schedule, one request every 1000/rate ms for the thread
  -- (open loop, like wrk2's -R): a free connection waits for its slot instead of sending at once.
  -- wrk looks for delay() after init, so unpaced runs never pay for it.
  local rate = tonumber(args[5] or "0")
  if rate > 0 then
    interval = 1000 / rate
    delay = function()
      local now = nowMs()
      if nextAt == nil then nextAt = now end
      nextAt = nextAt + interval
      local wait = nextAt - now
      if wait < 0 then return 0 end
      return math.floor(wait + 0.5)
    end
  end
  for line in io.lines(args[1]) do
    local tab = line:find("\t", 1, true)
    n = n + 1
    if tab then
      paths[n] = line:sub(1, tab - 1)
      sigs[n] = line:sub(tab + 1)
    else
      paths[n] = line
      sigs[n] = ""
    end
  end
  i = math.random(n) - 1
  collectgarbage("collect")
  collectgarbage("stop")
end
request = function()
  i = i % n + 1
  local headers = {}
  if sigs[i] ~= "" then
    headers["Authorization"] = auth
    headers["X-Service-Signature"] = sigs[i]
  end
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format(method, paths[i], headers, body)
end
`;

/** What one load run measured (latencies in ms). */
export interface LoadResult {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Socket errors (connect, read, write, timeout). */
  readonly errors: number;
  /** Responses with a status of 400 or more. */
  readonly non2xx: number;
  readonly total: number;
  /** CPU time the server process spent per answered request, in µs (when measured). */
  readonly cpuUsPerRequest?: number;
}

/** True when wrk is installed (scripts/ensure-bench-tools.sh installs it). */
export function wrkAvailable(): boolean {
  return (
    (spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout ?? '').includes('wrk') ||
    spawnSync('sh', ['-c', 'command -v wrk']).status === 0
  );
}

/** Options of a wrk run. */
export interface WrkOptions {
  readonly url: string;
  readonly path: string;
  readonly connections: number;
  readonly durationS: number;
  readonly threads?: number;
  /** Unique requests to prepare (≥ the number the run will send, or they repeat). */
  readonly uniqueRequests: number;
  readonly credentials?: { apiKey: string; signingSecret: string };
  /** `GET` (default) or `POST` with `body`, the same body for every request (each still uniquely signed). */
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** Requests per second on a fixed schedule (open loop); as fast as possible when absent. */
  readonly rate?: number;
}

/** A wrk run whose request file is written and signed, ready to start. */
export interface PreparedWrk {
  /** Runs wrk once and parses its report (the request file may be used by several runs within the signatures' 300 s). */
  run(): Promise<LoadResult>;
  /** Removes the request file. */
  dispose(): void;
}

/**
 * Signs the requests and writes wrk's files, without running it: several runs prepared first can
 * then start together (signing a few hundred thousand requests takes seconds).
 */
export function prepareWrk(o: WrkOptions): PreparedWrk {
  const dir = removeAtExit(mkdtempSync(join(tmpdir(), 'gov-wrk-')));
  try {
    const t = Math.floor(Date.now() / 1000);
    const method = o.method ?? 'GET';
    const lines: string[] = [];
    for (let i = 0; i < o.uniqueRequests; i++) {
      const path = `${o.path}${o.path.includes('?') ? '&' : '?'}n=${i}`;
      lines.push(
        o.credentials ? `${path}\t${signRequest(o.credentials.signingSecret, t, method, path, o.body ?? '')}` : path,
      );
    }
    writeFileSync(join(dir, 'requests.tsv'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'signed.lua'), LUA);
    if (o.body !== undefined) writeFileSync(join(dir, 'body.json'), o.body);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const args = [
    '-t',
    String(o.threads ?? 1),
    '-c',
    String(o.connections),
    '-d',
    `${o.durationS}s`,
    '--latency',
    '-s',
    join(dir, 'signed.lua'),
    o.url,
    '--',
    join(dir, 'requests.tsv'),
    o.credentials ? `Bearer ${o.credentials.apiKey}` : '',
    o.method ?? 'GET',
    o.body !== undefined ? join(dir, 'body.json') : '',
    String(o.rate ?? 0),
  ];
  return {
    run: async () =>
      parseWrk(
        await new Promise<string>((resolve, reject) => {
          const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
          killAtExit(child);
          let text = '';
          child.stdout.on('data', (c) => {
            text += String(c);
          });
          child.stderr.on('data', (c) => {
            text += String(c);
          });
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
        }),
      ),
    dispose: () => {
      rmSync(dir, { recursive: true, force: true });
      forget(dir);
    },
  };
}

/** Runs wrk and parses throughput and latency percentiles. */
export async function runWrk(o: WrkOptions): Promise<LoadResult> {
  const prepared = prepareWrk(o);
  try {
    return await prepared.run();
  } finally {
    prepared.dispose();
  }
}

function ms(value: string, unit: string): number {
  const v = Number(value);
  return unit === 'us' ? v / 1000 : unit === 's' ? v * 1000 : unit === 'm' ? v * 60_000 : v;
}

/** Parses wrk's `--latency` report. */
export function parseWrk(out: string): LoadResult {
  const pct = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? ms(m[1]!, m[2]!) : NaN;
  };
  const max = /Latency\s+[\d.]+\w+\s+[\d.]+\w+\s+([\d.]+)(us|ms|s|m)/.exec(out);
  const total = /(\d+) requests in/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50Ms: pct('50'),
    p90Ms: pct('90'),
    p99Ms: pct('99'),
    maxMs: max ? ms(max[1]!, max[2]!) : NaN,
    errors: sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    total: total ? Number(total[1]) : 0,
  };
}
