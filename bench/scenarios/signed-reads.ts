/**
 * @module bench/scenarios/signed-reads: scenario 1 (and 6). `GET /evaluations/{id}` with a real key,
 * a fresh signature per request, rate-limit accounting (limits raised for the bench key) and an
 * LMDB read, against a bare uWS hello-world returning a body of the same size and a bare Fastify
 * hello-world, all loaded by wrk in the same run. Scenario 6 is the same service with
 * METRICS_ENABLED=false. Every service runs in the default configuration, access log on (issue 20).
 * The servers run side by side and are measured in alternating rounds (each target's figure is the
 * median of its rounds), so a slow spell of this shared machine lands on all of them rather than on
 * whichever happened to be running.
 *
 * The access log's cost (issue 20, item 2) is measured in one process (bench/lib/log-phases): a third
 * service runs inside this process, its logger switched on and off during one wrk run per round.
 */
import { rmSync } from 'node:fs';
import { GovernanceClient } from '@gov/sdk';
import { variant } from '../../src/fleet/variants.js';
import { startChild, startService, type Child } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { startInProcessService, type InProcessService } from '../lib/in-process-service.js';
import { logCost, logPhases, type LogCost, type LogPhase } from '../lib/log-phases.js';
import { prepareWrk, type LoadResult } from '../lib/wrk.js';
import { median as medianOf } from '../lib/stats.js';

/** The targets measured, in the order of each round. */
export type SignedReadsTarget = 'signed' | 'signedNoMetrics' | 'uws' | 'fastify';

/**
 * Results of scenarios 1 and 6: each target's round of median throughput, and its CPU per request
 * as the median of its rounds' (the two medians may come from different rounds).
 */
export interface SignedReads {
  readonly bodyBytes: number;
  readonly rounds: number;
  /** Server CPU time per request of each target, in µs: the median of its rounds. */
  readonly cpuUs: Readonly<Record<SignedReadsTarget, number>>;
  /**
   * The median over rounds of `a`'s CPU per request ÷ `b`'s in the same round: targets measured one
   * after the other within a round see the same spell of this shared machine, so a slow spell cancels
   * out of the ratio (issue 20: the access log's cost is a few per cent, less than the spread of one
   * target's rounds).
   */
  pairedCpuRatio(a: SignedReadsTarget, b: SignedReadsTarget): number;
  readonly uws: LoadResult;
  readonly fastify: LoadResult;
  readonly signed: LoadResult;
  readonly signedNoMetrics: LoadResult;
  /**
   * The access log's cost (issue 20, item 2), in the service inside the bench process: CPU µs per
   * request of its log-on and log-off phases (medians), and the median over adjacent phase pairs of
   * on ÷ off, with the number of pairs.
   */
  readonly log: LogCost;
}

/**
 * Runs the comparison: `rounds` rounds of `durationS` seconds per target, after `warmUpS` seconds of
 * warm-up each. `uniquePerSecond` distinct signed requests are prepared per measured second (wrk
 * cycles through them when it sends more; a GET's signature may repeat, only non-GET ones are
 * replay-checked); signing them and wrk loading them is most of a quick run's time, so the quick run
 * prepares fewer.
 */
export async function benchSignedReads(
  durationS: number,
  rounds: number,
  connections = 64,
  warmUpS = 3,
  uniquePerSecond = 160_000,
): Promise<SignedReads> {
  const p = await prepare([['r1', JSON.stringify(variant(1))]]);
  const children: Child[] = [];
  let inside: InProcessService | null = null;
  try {
    // Both service processes share the data directory (LMDB is multi-process), so both serve the same evaluation.
    const on = await startService(p.dataDir, { METRICS_ENABLED: 'true', POOL_THREADS: '1' });
    children.push(on);
    const off = await startService(p.dataDir, { METRICS_ENABLED: 'false', POOL_THREADS: '1' });
    children.push(off);
    inside = await startInProcessService(p.dataDir);
    const logged = inside;
    const client = new GovernanceClient({ baseUrl: on.url, ...p.credentials });
    const submitted = (await client.submitEvaluation({ scenario_ids: ['r1'] })).data;
    await client.waitForEvaluation(submitted, { intervalsMs: [50], timeoutMs: 30_000 });
    // The size of the answer wrk will load: the complete status view's envelope.
    const bodyBytes = Number((await client.getEvaluation(submitted.evaluation_id)).headers.get('content-length'));
    if (!(bodyBytes > 0)) throw new Error('the status view came without a Content-Length');
    const uws = await startChild('bench/servers/uws-hello.js', { BODY_BYTES: String(bodyBytes) });
    children.push(uws);
    const fastify = await startChild('bench/servers/fastify-hello.js', { BODY_BYTES: String(bodyBytes) });
    children.push(fastify);
    const path = `/api/public/v1/evaluations/${submitted.evaluation_id}`;
    const targets = [
      { name: 'signed', server: on, load: { url: on.url, path, credentials: p.credentials } },
      { name: 'signedNoMetrics', server: off, load: { url: off.url, path, credentials: p.credentials } },
      { name: 'uws', server: uws, load: { url: uws.url, path: '/api/public/v1/evaluations/x' } },
      { name: 'fastify', server: fastify, load: { url: fastify.url, path: '/api/public/v1/evaluations/x' } },
    ] as const;
    /** One wrk run against the service inside this process, its logger switched every LOG_PHASE_MS. */
    const phasesOf = (seconds: number, unique: number): Promise<LogPhase[]> =>
      logPhases(logged, {
        url: logged.url,
        path,
        credentials: p.credentials,
        connections,
        durationS: seconds,
        uniqueRequests: unique,
      });
    const results = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
    /** One wrk run against `t`, its requests signed first: CPU per request is the server's CPU time over the requests it answered. */
    const load = async (t: (typeof targets)[number], seconds: number, unique: number): Promise<LoadResult> => {
      const prepared = prepareWrk({ ...t.load, connections, durationS: seconds, uniqueRequests: unique });
      try {
        const cpu0 = t.server.cpuSeconds();
        const r = await prepared.run();
        return { ...r, cpuUsPerRequest: ((t.server.cpuSeconds() - cpu0) * 1e6) / Math.max(1, r.total) };
      } finally {
        prepared.dispose();
      }
    };
    const warmUnique = warmUpS * Math.min(50_000, uniquePerSecond);
    for (const t of targets) await load(t, warmUpS, warmUnique); // warm-up (JIT, caches)
    await phasesOf(warmUpS, warmUnique);
    const phases: LogPhase[][] = [];
    for (let round = 0; round < rounds; round++) {
      for (const t of targets)
        results.get(t.name)!.push(await load(t, durationS, Math.ceil(durationS * uniquePerSecond)));
      // Twice a target's time: the phases are short, and their pairs are what the figure rests on.
      phases.push(await phasesOf(2 * durationS, Math.ceil(2 * durationS * uniquePerSecond)));
    }
    const median = (name: string): LoadResult => {
      const runs = [...results.get(name)!].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
      return runs[Math.floor(runs.length / 2)]!;
    };
    const cpuOf = (r: LoadResult): number => r.cpuUsPerRequest ?? Number.NaN;
    const cpuUs = Object.fromEntries(targets.map((t) => [t.name, medianOf(results.get(t.name)!.map(cpuOf))])) as Record<
      SignedReadsTarget,
      number
    >;
    return {
      bodyBytes,
      rounds,
      cpuUs,
      pairedCpuRatio: (a, b) => {
        const as = results.get(a)!;
        const bs = results.get(b)!;
        return medianOf(as.map((r, i) => cpuOf(r) / cpuOf(bs[i]!)));
      },
      signed: median('signed'),
      signedNoMetrics: median('signedNoMetrics'),
      log: logCost(phases),
      uws: median('uws'),
      fastify: median('fastify'),
    };
  } finally {
    await inside?.close();
    for (const c of children) await c.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
