/**
 * @module bench/scenarios/isolation: tenant isolation on the pool (issue 31). Organization B sends
 * small inline evaluations one after another, first alone, then while organization A floods the
 * service with heavy ones (a closed loop of 4 per worker, more than A's share of the pool admits). The
 * row: B's p99 under the flood ÷ (B's p99 alone + one of A's evaluations alone), target ≤ 2 (B waits
 * for about one of A's tasks at most), with B never refused while A is (`503`, A's share full).
 * Default configuration (access log on), the service as a child process.
 */
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GovernanceClient } from '../../src/client/client.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/order-intake.blueprint.json', import.meta.url));

/** Percentiles of one client's latencies, in ms. */
export interface Latencies {
  readonly n: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Results of the isolation benchmark. */
export interface IsolationBench {
  readonly threads: number;
  /** Size of A's blueprint, in bytes. */
  readonly heavyBytes: number;
  /** B alone. */
  readonly alone: Latencies;
  /** One of A's evaluations alone (median of sequential requests), in ms. */
  readonly heavyMs: number;
  /** B while A floods. */
  readonly flooded: Latencies;
  /** B's requests answered other than 200 while A flooded (target 0). */
  readonly bRefused: number;
  /** A's requests answered 200 and 503 during the flood. */
  readonly aServed: number;
  readonly aRefused: number;
  /** B's flooded p99 ÷ (B's p99 alone + one of A's evaluations), target ≤ 2. */
  readonly ratio: number;
}

/** A blueprint of about 1.7 MB: the example order flow repeated into 240 modules, each with a long text. */
export function heavyBlueprint(): string {
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { flow: Record<string, unknown>[] };
  const text = 'lorem ipsum dolor sit amet, consectetur adipiscing elit '.repeat(120);
  const flow = Array.from({ length: 240 }, (_, i) => {
    const template = example.flow[i % example.flow.length]!;
    const { routes: _routes, onerror: _onerror, ...plain } = template;
    return { ...plain, id: i + 1, mapper: { ...(plain['mapper'] as object), note: text } };
  });
  return JSON.stringify({ ...example, flow });
}

function percentiles(ms: number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: sorted.length, p50Ms: Math.round(at(0.5) * 100) / 100, p99Ms: Math.round(at(0.99) * 100) / 100 };
}

/** Distinct requests: the same signed request twice within a second reads as a replay. */
let sequence = 0;
async function inline(client: GovernanceClient, body: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const r = await client.call('POST', `/evaluate/inline?n=${++sequence}`, undefined, { rawBody: body });
  return { status: r.status, ms: performance.now() - started };
}

/** B's latencies over `n` sequential requests; `refused` counts the answers other than 200. */
async function sequential(client: GovernanceClient, body: string, n: number) {
  const ms: number[] = [];
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const r = await inline(client, body);
    if (r.status === 200) ms.push(r.ms);
    else refused++;
  }
  return { latencies: percentiles(ms), refused };
}

/** Runs the isolation benchmark with `threads` workers; `requests` of B per phase. */
export async function benchIsolation(threads: number, requests: number): Promise<IsolationBench> {
  const p = await prepare([]);
  // A second organization with its own key (the prepared one is A).
  const store = openStore(p.dataDir);
  let b: { apiKey: string; signingSecret: string };
  try {
    const keys = new KeyService(store.organizations, loadServerSecrets(p.dataDir), 'gov');
    const org = await keys.createOrg('Bench B');
    const key = await keys.createKey(org.org_id, { name: 'b', perMinute: 1_000_000_000, perHour: 1_000_000_000 });
    b = { apiKey: key.api_key, signingSecret: key.signing_secret };
  } finally {
    await store.close();
  }
  const svc = await startService(p.dataDir, { POOL_THREADS: String(threads) });
  try {
    const clientA = new GovernanceClient(svc.url, p.credentials);
    const clientB = new GovernanceClient(svc.url, b);
    const heavy = `{"blueprint":${heavyBlueprint()}}`;
    const small = `{"blueprint":${readFileSync(EXAMPLE, 'utf8')}}`;
    // Warm-up: both kinds of evaluation, so the workers' code is compiled for the mix.
    for (let i = 0; i < 8; i++) await inline(clientA, heavy);
    await sequential(clientB, small, 100);
    const alone = await sequential(clientB, small, requests);
    const heavyRuns: number[] = [];
    for (let i = 0; i < 9; i++) heavyRuns.push((await inline(clientA, heavy)).ms);
    const heavyMs = [...heavyRuns].sort((x, y) => x - y)[4]!;
    let flooding = true;
    let aServed = 0;
    let aRefused = 0;
    const flood = Array.from({ length: 4 * threads }, async () => {
      while (flooding) {
        const r = await inline(clientA, heavy);
        if (r.status === 200) aServed++;
        else aRefused++;
      }
    });
    let flooded: Awaited<ReturnType<typeof sequential>>;
    try {
      await new Promise((r) => setTimeout(r, 500)); // the flood reaches its depth
      flooded = await sequential(clientB, small, requests);
    } finally {
      flooding = false;
      await Promise.all(flood);
    }
    return {
      threads,
      heavyBytes: Buffer.byteLength(heavy),
      alone: alone.latencies,
      heavyMs: Math.round(heavyMs * 100) / 100,
      flooded: flooded.latencies,
      bRefused: flooded.refused + alone.refused,
      aServed,
      aRefused,
      ratio: flooded.latencies.p99Ms / (alone.latencies.p99Ms + heavyMs),
    };
  } finally {
    await svc.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
