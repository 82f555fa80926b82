/**
 * @module bench/scenarios/signed-reads: scenario 1 (and 6). `GET /evaluations/{id}` with a real key,
 * a fresh signature per request, rate-limit accounting (limits raised for the bench key) and an
 * LMDB read, against a bare uWS hello-world returning a body of the same size and a bare Fastify
 * hello-world, all loaded by wrk in the same run. Scenario 6 repeats it with METRICS_ENABLED=false.
 */
import { rmSync } from 'node:fs';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import { variant } from '../../src/fleet/variants.js';
import { startChild, startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { runWrk } from '../lib/wrk.js';
import type { LoadResult } from '../lib/wrk.js';

/** Results of scenarios 1 and 6. */
export interface SignedReads {
  readonly bodyBytes: number;
  readonly uws: LoadResult;
  readonly fastify: LoadResult;
  readonly signed: LoadResult;
  readonly signedNoMetrics: LoadResult;
}

/** Runs the comparison; `durationS` per run. */
export async function benchSignedReads(durationS: number, connections = 64): Promise<SignedReads> {
  const p = await prepare([['r1', JSON.stringify(variant(1))]]);
  const run = async (metrics: boolean): Promise<{ result: LoadResult; bodyBytes: number }> => {
    const svc = await startService(p.dataDir, { METRICS_ENABLED: String(metrics), POOL_THREADS: '1' });
    try {
      const client = new GovernanceClient(svc.url, p.credentials);
      const submit = await client.call('POST', '/evaluate', { scenario_ids: ['r1'], metrics });
      const done = await pollEvaluation(client, submit.body.data.evaluation_id, { delaysMs: [50], timeoutMs: 30_000 });
      const path = `/api/public/v1/evaluations/${submit.body.data.evaluation_id}`;
      await runWrk({ url: svc.url, path, connections, durationS: 1, uniqueRequests: 50_000, credentials: p.credentials }); // warm-up
      const result = await runWrk({ url: svc.url, path, connections, durationS, uniqueRequests: Math.ceil(durationS * 160_000), credentials: p.credentials });
      return { result, bodyBytes: Buffer.byteLength(done.raw) };
    } finally {
      await svc.stop();
    }
  };
  const signed = await run(true);
  const signedNoMetrics = await run(false);
  const refs: Record<string, LoadResult> = {};
  for (const name of ['uws', 'fastify'] as const) {
    const s = await startChild(`bench/servers/${name}-hello.js`, { BODY_BYTES: String(signed.bodyBytes) });
    try {
      await runWrk({ url: s.url, path: '/api/public/v1/evaluations/x', connections, durationS: 1, uniqueRequests: 50_000 });
      refs[name] = await runWrk({ url: s.url, path: '/api/public/v1/evaluations/x', connections, durationS, uniqueRequests: Math.ceil(durationS * 160_000) });
    } finally {
      await s.stop();
    }
  }
  rmSync(p.dataDir, { recursive: true, force: true });
  return { bodyBytes: signed.bodyBytes, uws: refs['uws']!, fastify: refs['fastify']!, signed: signed.result, signedNoMetrics: signedNoMetrics.result };
}
