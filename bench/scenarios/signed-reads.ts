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
 * The access log's cost (issue 20, item 2) is measured in one process: two service processes of the
 * same configuration measured up to 20% apart in CPU per request on the 2-core test machine, and
 * one process loaded twice back to back 10% apart in either direction (docs/benchmarks.md
 * "Measuring a few per cent"), more than the cost to be measured. So a third service runs inside
 * this process (its log written to /dev/null), and each round loads it with one wrk run during
 * which its logger switches between `info` (access log on) and `warn` (off) every
 * {@link LOG_PHASE_MS}; each phase's CPU (this process's: nothing else runs in it meanwhile, the
 * requests are signed before) is divided by the requests the service counted in it, and the figure
 * is the median, over every pair of adjacent phases, of the log-on phase's ÷ the log-off phase's.
 */
import { closeSync, openSync, rmSync } from 'node:fs';
import { GovernanceClient } from '@gov/sdk';
import { variant } from '../../src/fleet/variants.js';
import { loadConfig } from '../../src/server/config.js';
import { serviceLog } from '../../src/server/log-destination.js';
import { startServer } from '../../src/server/server.js';
import { startChild, startService, type Child } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { inProcessServiceEnv } from '../lib/builds.js';
import { prepareWrk, type LoadResult } from '../lib/wrk.js';
import { median as medianOf } from '../lib/stats.js';

/** The targets measured, in the order of each round. */
export type SignedReadsTarget = 'signed' | 'signedNoMetrics' | 'uws' | 'fastify';

/** Length of a phase of the access log's measurement, in ms (about 9,000 requests on the test machine). */
export const LOG_PHASE_MS = 250;

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
  readonly log: { readonly onUs: number; readonly offUs: number; readonly ratio: number; readonly pairs: number };
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
  let closeInside = (): Promise<void> => Promise.resolve();
  try {
    // Both service processes share the data directory (LMDB is multi-process), so both serve the same evaluation.
    const on = await startService(p.dataDir, { METRICS_ENABLED: 'true', POOL_THREADS: '1' });
    children.push(on);
    const off = await startService(p.dataDir, { METRICS_ENABLED: 'false', POOL_THREADS: '1' });
    children.push(off);
    const devNull = openSync('/dev/null', 'w');
    const log = serviceLog('info', devNull);
    const config = loadConfig(inProcessServiceEnv(p.dataDir));
    const server = await startServer(config, { logger: log.logger });
    closeInside = async () => {
      await server.close();
      log.flushSync();
      closeSync(devNull);
    };
    const insideUrl = `http://127.0.0.1:${server.port}`;
    const ownCpuSeconds = (): number => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
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
    const requestsSeen = async (): Promise<number> => {
      const metric = await server.metrics!.registry.getSingleMetric('gov_http_requests_total')!.get();
      return metric.values.reduce((sum, v) => sum + v.value, 0);
    };
    /** One wrk run against the service inside this process, its logger switched every LOG_PHASE_MS: each phase's µs per request. */
    const logPhases = async (seconds: number, unique: number): Promise<{ on: boolean; us: number }[]> => {
      const prepared = prepareWrk({
        url: insideUrl,
        path,
        credentials: p.credentials,
        connections,
        durationS: seconds,
        uniqueRequests: unique,
      });
      const phases: { on: boolean; us: number }[] = [];
      try {
        let on = true;
        log.logger.level = 'info';
        let done = false;
        const running = prepared.run();
        // Handled at once (the phases below await timers meanwhile); a failed run is thrown by `await running`.
        running.then(
          () => (done = true),
          () => (done = true),
        );
        let cpu = ownCpuSeconds();
        let requests = await requestsSeen();
        // The first and last phases overlap wrk's start and end: left out.
        for (let i = 0; ; i++) {
          await new Promise((r) => setTimeout(r, LOG_PHASE_MS));
          if (done) break;
          const cpuNow = ownCpuSeconds();
          const requestsNow = await requestsSeen();
          if (i > 0 && requestsNow > requests)
            phases.push({ on, us: ((cpuNow - cpu) * 1e6) / (requestsNow - requests) });
          on = !on;
          log.logger.level = on ? 'info' : 'warn';
          cpu = ownCpuSeconds();
          requests = await requestsSeen();
        }
        await running;
        return phases.slice(0, -1);
      } finally {
        log.logger.level = 'info';
        prepared.dispose();
      }
    };
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
    await logPhases(warmUpS, warmUnique);
    const phases: { on: boolean; us: number }[][] = [];
    for (let round = 0; round < rounds; round++) {
      for (const t of targets)
        results.get(t.name)!.push(await load(t, durationS, Math.ceil(durationS * uniquePerSecond)));
      // Twice a target's time: the phases are short, and their pairs are what the figure rests on.
      phases.push(await logPhases(2 * durationS, Math.ceil(2 * durationS * uniquePerSecond)));
    }
    const pairRatios = phases.flatMap((list) =>
      list.slice(1).map((b, i) => {
        const a = list[i]!;
        return a.on ? a.us / b.us : b.us / a.us;
      }),
    );
    const all = phases.flat();
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
      log: {
        onUs: medianOf(all.filter((x) => x.on).map((x) => x.us)),
        offUs: medianOf(all.filter((x) => !x.on).map((x) => x.us)),
        ratio: medianOf(pairRatios),
        pairs: pairRatios.length,
      },
      uws: median('uws'),
      fastify: median('fastify'),
    };
  } finally {
    await closeInside();
    for (const c of children) await c.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
