/**
 * @module bench/scenarios/fleet: scenario 4. Import N scenarios (variants of our own examples),
 * evaluate them all in batches of 10, then read the organization rollup and the console's fleet
 * reads. Targets: service RSS under 400 MB throughout; rollup latency with N scenarios ≤ 1.5 × with
 * 100; no evaluation left non-terminal; every console read under 1 s at N (issue 18).
 */
import { rmSync } from 'node:fs';
import { GovernanceClient } from '@gov/sdk';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { startService, type Child } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';

/** Results of scenario 4. */
export interface FleetBench {
  readonly scenarios: number;
  readonly importSeconds: number;
  readonly evaluateSeconds: number;
  readonly maxRssBytes: number;
  /** Peak RSS including the console's reads (a sign-in's scrypt included). */
  readonly consolePeakRssBytes: number;
  readonly rollupMsAt100: number;
  readonly rollupMsAtAll: number;
  readonly nonTerminal: number;
  readonly rollupScenariosEvaluated: number;
  /** The console's reads at the whole fleet (issue 18: "loads in under 1 s for 10,000 scenarios"), ms. */
  readonly console: {
    readonly overview: Latency;
    readonly pageByScore: Latency;
    readonly lastPageByName: Latency;
    readonly search: Latency;
    readonly scenarioPage: Latency;
  };
}

/** Median and worst of a series of calls, in ms. */
export interface Latency {
  readonly medianMs: number;
  readonly maxMs: number;
}

/** Times `n` calls of the console API at `path` with a session (sequential: latency, not throughput). */
async function consoleMs(url: string, session: string, path: (i: number) => string, n: number): Promise<Latency> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/v1${path(i)}`, { headers: { authorization: `Bearer ${session}` } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`console ${path(i)} failed: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)]!, maxMs: times.at(-1)! };
}

/** The console's reads over the whole fleet: overview, a page by score, the last page by name (cursor walk), a search, a scenario page. */
async function consoleReads(url: string, user: { email: string; password: string }, n: number) {
  const login = await fetch(`${url}/api/v1/session`, {
    method: 'POST',
    body: JSON.stringify(user),
    headers: { 'content-type': 'application/json' },
  });
  const session = ((await login.json()) as { data: { session_token: string } }).data.session_token;
  // The cursor of the last page by name, found by walking the pages once (200 per page).
  let cursor = '';
  for (;;) {
    const res = await fetch(`${url}/api/v1/scenarios?sort=name&limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    const next = ((await res.json()) as { data: { next_cursor: string | null } }).data.next_cursor;
    if (next === null) break;
    cursor = next;
  }
  return {
    overview: await consoleMs(url, session, (i) => `/overview?i=${i}`, 50),
    pageByScore: await consoleMs(url, session, (i) => `/scenarios?sort=score&order=desc&limit=50&i=${i}`, 50),
    lastPageByName: await consoleMs(url, session, (i) => `/scenarios?sort=name&limit=200&cursor=${cursor}&i=${i}`, 50),
    search: await consoleMs(url, session, (i) => `/scenarios?q=f${(i * 37) % n}&limit=50`, 20),
    scenarioPage: await consoleMs(url, session, (i) => `/scenarios/f${(i * 97) % n}`, 20),
  };
}

async function evaluateRange(client: GovernanceClient, from: number, to: number, parallel: number): Promise<number> {
  let nonTerminal = 0;
  let next = from;
  const worker = async () => {
    while (next < to) {
      const start = next;
      next += 10;
      const ids = Array.from({ length: Math.min(10, to - start) }, (_, i) => `f${start + i}`);
      const submitted = (await client.submitEvaluation({ scenario_ids: ids })).data;
      const done = await client.waitForEvaluation(submitted, { intervalsMs: [100, 200, 400], timeoutMs: 600_000 });
      if (done.status !== 'complete' && done.status !== 'error') nonTerminal++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return nonTerminal;
}

async function rollupMs(client: GovernanceClient, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    // A refusal throws (GovernanceApiError): no figure from failed reads.
    await client.getOrganizationRollup();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Runs scenario 4 with `n` scenarios. */
export async function benchFleet(n: number, threads: number): Promise<FleetBench> {
  const examples = exampleBlueprints();
  const t0 = performance.now();
  const p = await prepare(
    Array.from({ length: n }, (_, i) => [`f${i}`, JSON.stringify(variant(i, examples))] as [string, string]),
  );
  const importSeconds = (performance.now() - t0) / 1000;
  let svc: Child | null = null;
  let maxRss = 0;
  const sampler = setInterval(() => {
    if (svc) maxRss = Math.max(maxRss, svc.rss());
  }, 100);
  try {
    svc = await startService(p.dataDir, { POOL_THREADS: String(threads), POOL_MAX_QUEUE: '4096' });
    const client = new GovernanceClient({ baseUrl: svc.url, ...p.credentials });
    const t1 = performance.now();
    let nonTerminal = await evaluateRange(client, 0, 100, 4);
    const rollupMsAt100 = await rollupMs(client, 200);
    nonTerminal += await evaluateRange(client, 100, n, 8);
    const evaluateSeconds = (performance.now() - t1) / 1000;
    const rollupMsAtAll = await rollupMs(client, 200);
    const rollup = await client.getOrganizationRollup();
    maxRss = Math.max(maxRss, svc.rss());
    // The console's reads after the fleet's figure: its sign-in hashes a password with scrypt
    // (128 MiB for a moment, whatever the fleet), which is not what the fleet target measures.
    const fleetRss = maxRss;
    const consoleLatency = await consoleReads(svc.url, p.consoleUser, n);
    return {
      scenarios: n,
      importSeconds,
      evaluateSeconds,
      maxRssBytes: fleetRss,
      consolePeakRssBytes: maxRss,
      rollupMsAt100,
      rollupMsAtAll,
      nonTerminal,
      rollupScenariosEvaluated: rollup.data.scenarios_evaluated,
      console: consoleLatency,
    };
  } finally {
    clearInterval(sampler);
    await svc?.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
