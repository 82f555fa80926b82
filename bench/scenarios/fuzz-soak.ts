/**
 * @module bench/scenarios/fuzz-soak: hostile traffic for a fixed time (issue 13, "Also seen": RSS
 * grew across fuzz runs while the main heap stayed flat). The fuzz arbitraries of the fuzz test
 * (shaped, mutated, deep, huge up to 1.5 MB, invalid UTF-8 bodies on every POST route; random path
 * segments on the GET routes), signed, from 4 keep-alive connections against the service with its
 * default configuration and its access log on (`LOG_LEVEL=info`). Targets: RSS growth after
 * warm-up under 10% (anonymous memory, measured as in the soak), zero 5xx.
 */
import { rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { GovernanceClient, signRequest } from '@gov/sdk';
import { fuzzPath, fuzzPost, type FuzzRequest, type FuzzTargets } from '../../test/helpers/fuzz-requests.js';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { median } from '../lib/stats.js';

/** Concurrent connections of the generator. */
const CONNECTIONS = 4;
/** Requests generated per fast-check sample (each sample has its own seed, so the stream never repeats). */
const BATCH = 200;
/** Longest wait for one answer, in ms (as the fuzz test: beyond it the request counts as a hang). */
const ANSWER_WITHIN_MS = 15_000;

/** One memory sample of the service process, from /proc/<pid>/status. */
export interface MemorySample {
  /** Seconds since the start of the traffic. */
  readonly t: number;
  /** Resident set size (`VmRSS`), in bytes. */
  readonly rss: number;
  /** Anonymous resident memory (`RssAnon`: heaps, malloc arenas, stacks), in bytes. */
  readonly anon: number;
}

/** Results of the fuzz soak. */
export interface FuzzSoakBench {
  readonly seconds: number;
  readonly requests: number;
  /** Request body bytes sent, in bytes. */
  readonly bytesSent: number;
  readonly byStatus: Record<string, number>;
  readonly fiveXx: number;
  /** Requests without an answer (network error or no answer within 15 s). */
  readonly unanswered: number;
  /** Growth of anonymous memory after warm-up, computed as in the soak (windowed medians). */
  readonly rssGrowth: number;
  /** The same ratio on total RSS (includes LMDB's file-backed pages and the mapped binary). */
  readonly rssTotalGrowth: number;
  readonly anonAfterWarmupBytes: number;
  readonly anonEndBytes: number;
  readonly rssAfterWarmupBytes: number;
  readonly rssEndBytes: number;
  /** Highest RSS sampled, in bytes. */
  readonly rssPeakBytes: number;
  /** Before any traffic (the service started and idle), in bytes. */
  readonly rssStartBytes: number;
  readonly anonStartBytes: number;
  /** After the traffic, once the service was idle for `idleSeconds`, in bytes: what it gives back. */
  readonly idleSeconds: number;
  readonly rssIdleBytes: number;
  readonly anonIdleBytes: number;
  readonly samples: readonly MemorySample[];
}

/**
 * Runs the fuzz soak for `seconds` of traffic (the full run: 600; quick: 20), then `idleSeconds` of
 * quiet (full: 30; quick: 5). Memory is sampled every 2 s (or 1/40 of a short run); the growth is the
 * median of the samples in the last tenth of the traffic over the median of the first tenth after the
 * warm-up (the first 25%), on anonymous memory as in the soak (docs/benchmarks.md).
 */
export async function benchFuzzSoak(
  seconds: number,
  idleSeconds: number,
  env: Record<string, string> = {},
): Promise<FuzzSoakBench> {
  const p = await prepare([
    [
      's1',
      JSON.stringify({
        name: 'fuzz target',
        flow: [
          { id: 1, module: 'gateway:CustomWebHook', version: 1 },
          { id: 2, module: 'http:ActionSendData', version: 3, mapper: { url: 'http://example.com/{{1.x}}' } },
        ],
      }),
    ],
  ]);
  // Private webhook targets allowed as in the fuzz test, so deliveries fail fast on a closed local port.
  const svc = await startService(p.dataDir, { LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env });
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    // The targets are set up with the SDK; the fuzzed requests themselves are raw bytes over node:http.
    const client = new GovernanceClient({ baseUrl: svc.url, ...p.credentials });
    const hook = (await client.createWebhook({ url: 'http://127.0.0.1:9/fuzz' })).data;
    const submitted = (await client.submitEvaluation({ scenario_ids: ['s1'] })).data;
    const targets: FuzzTargets = {
      scenarioId: 's1',
      webhookId: hook.webhook_id,
      resultToken: submitted.result_token ?? '',
    };
    const arb = fc.oneof({ arbitrary: fuzzPost(targets), weight: 3 }, { arbitrary: fuzzPath(targets), weight: 1 });

    let n = 0;
    /** Sends `r` signed; resolves its status, or 0 without an answer. */
    const send = (r: FuzzRequest): Promise<number> =>
      new Promise((resolve) => {
        const path = `/api/public/v1${r.path}`;
        // Distinct signing times keep repeated bodies from being refused as replays (as the fuzz test).
        const ts = Math.floor(Date.now() / 1000) - (n++ % 250);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: svc.port,
            method: r.method,
            path,
            agent,
            headers: {
              authorization: `Bearer ${p.credentials.apiKey}`,
              'x-service-signature': signRequest(p.credentials.signingSecret, ts, r.method, path, r.body),
              ...(r.body.length > 0 || r.method === 'POST'
                ? { 'content-type': 'application/json', 'content-length': String(r.body.length) }
                : {}),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', () => resolve(0));
          },
        );
        req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy());
        req.on('error', () => resolve(0));
        req.end(r.body);
      });

    const rssStart = svc.rss();
    const anonStart = svc.rssAnon();
    const start = Date.now();
    const end = start + seconds * 1000;
    const warmupAt = start + seconds * 250;
    const samples: MemorySample[] = [];
    const sample = () => samples.push({ t: (Date.now() - start) / 1000, rss: svc.rss(), anon: svc.rssAnon() });
    const sampler = setInterval(sample, Math.min(2000, seconds * 25));
    const byStatus: Record<string, number> = {};
    let requests = 0;
    let bytesSent = 0;
    let seed = 1;
    let queue: FuzzRequest[] = [];
    const next = (): FuzzRequest => {
      if (queue.length === 0) queue = fc.sample(arb, { numRuns: BATCH, seed: seed++ });
      return queue.pop()!;
    };
    try {
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < end) {
            const r = next();
            bytesSent += r.body.length;
            const status = await send(r);
            requests++;
            byStatus[status] = (byStatus[status] ?? 0) + 1;
          }
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    sample();
    const rssPeak = Math.max(...samples.map((x) => x.rss));
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    sample();
    const idle = samples.at(-1)!;
    const window = seconds * 100; // a tenth of the run, in ms
    const first = samples.filter((x) => x.t * 1000 >= warmupAt - start && x.t * 1000 < warmupAt - start + window);
    const last = samples.filter((x) => x.t * 1000 >= seconds * 1000 - window);
    const anonAfterWarmup = median(first.map((x) => x.anon));
    const anonEnd = median(last.map((x) => x.anon));
    const rssAfterWarmup = median(first.map((x) => x.rss));
    const rssEnd = median(last.map((x) => x.rss));
    const fiveXx = Object.entries(byStatus)
      .filter(([s]) => s.startsWith('5'))
      .reduce((a, [, c]) => a + c, 0);
    return {
      seconds,
      requests,
      bytesSent,
      byStatus,
      fiveXx,
      unanswered: byStatus['0'] ?? 0,
      rssGrowth: anonAfterWarmup > 0 ? (anonEnd - anonAfterWarmup) / anonAfterWarmup : 0,
      rssTotalGrowth: rssAfterWarmup > 0 ? (rssEnd - rssAfterWarmup) / rssAfterWarmup : 0,
      anonAfterWarmupBytes: anonAfterWarmup,
      anonEndBytes: anonEnd,
      rssAfterWarmupBytes: rssAfterWarmup,
      rssEndBytes: rssEnd,
      rssPeakBytes: rssPeak,
      rssStartBytes: rssStart,
      anonStartBytes: anonStart,
      idleSeconds,
      rssIdleBytes: idle.rss,
      anonIdleBytes: idle.anon,
      samples,
    };
  } finally {
    agent.destroy();
    await svc.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
