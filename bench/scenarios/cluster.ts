/**
 * @module bench/scenarios/cluster: issue 16's cluster benchmark. In one run, on one machine: an LMDB
 * single node, then cluster mode (`STORE=redis`) on a throw-away redis-server with 1, 2 and 3 nodes
 * (nodes added one by one to the same Redis). On each: signed reads (the request of
 * bench/scenarios/signed-reads, wrk against every node's port at once) and saturated stored batches
 * of 10 (bench/scenarios/batches' blueprints and submission loop, submitters spread over the nodes).
 * Every node runs the default configuration (access log on, metrics on, one pool worker per core;
 * BENCH_CLUSTER_LOG_LEVEL=warn turns the access log off)
 * except POOL_MAX_QUEUE and EVALUATION_TIMEOUT_MS, raised as in the batch benchmark so saturation
 * queues instead of refusing. LMDB and 1-node Redis reads alternate in rounds (the target compares
 * them); each figure is the median of its rounds. Redis and every node are stopped at the end, also
 * on failure.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GovernanceClient } from '@gov/sdk';
import { variant } from '../../src/fleet/variants.js';
import { removeAtExit } from '../lib/cleanup.js';
import { startService, type Child } from '../lib/processes.js';
import { startBenchRedis, type BenchRedis } from '../lib/redis-server.js';
import { prepare, prepareRedis } from '../lib/setup.js';
import { runWrk } from '../lib/wrk.js';
import { batchBlueprints } from './batches.js';
import {
  measureBatches,
  measureReads,
  medianBatches,
  medianReads,
  type BatchRun,
  type Deployment,
  type ReadRound,
} from './cluster-measure.js';

/** Options of the cluster benchmark. */
export interface ClusterOptions {
  /** Seconds of each read round. */
  readonly readSeconds: number;
  /** Read rounds per deployment. */
  readonly rounds: number;
  /** Batch rounds per deployment (default `rounds`). */
  readonly batchRounds?: number;
  /** Measured batches of 10 per deployment and round (as many again for warm-up, before the first round). */
  readonly batches: number;
  /** wrk connections in total, split over the nodes (default 64, as the signed-reads benchmark). */
  readonly connections?: number;
  /** Largest cluster (default 3). */
  readonly maxNodes?: number;
}

/** One deployment's figures: reads and batches, each figure the median over its rounds, and the rounds. */
export interface ClusterPoint {
  readonly name: string;
  readonly nodes: number;
  readonly reads: ReadRound;
  readonly readRounds: readonly ReadRound[];
  readonly batches: BatchRun;
  readonly batchRounds: readonly BatchRun[];
}

/** Results of the cluster benchmark. */
export interface ClusterBench {
  readonly connections: number;
  readonly readSeconds: number;
  readonly rounds: number;
  readonly batchRounds: number;
  readonly batches: number;
  readonly points: readonly ClusterPoint[];
}

/** Submits one batch of `r1` through `node` and returns the read path of the completed evaluation. */
async function completedEvaluation(node: Child, credentials: Deployment['credentials']): Promise<string> {
  const client = new GovernanceClient({ baseUrl: node.url, ...credentials });
  const submitted = (await client.submitEvaluation({ scenario_ids: ['r1'] })).data;
  await client.waitForEvaluation(submitted, { intervalsMs: [50], timeoutMs: 30_000 });
  return `/api/public/v1/evaluations/${submitted.evaluation_id}`;
}

/** Runs the cluster benchmark (about 4 × (rounds × readSeconds + batch time) plus start-ups). */
export async function benchCluster(o: ClusterOptions): Promise<ClusterBench> {
  const connections = o.connections ?? 64;
  const maxNodes = o.maxNodes ?? 3;
  const batchRounds = o.batchRounds ?? o.rounds;
  const scenarios: [string, string][] = [
    ['r1', JSON.stringify(variant(1))],
    ...batchBlueprints().map((t, i) => [`b${i}`, t] as [string, string]),
  ];
  // The default configuration logs every request (LOG_LEVEL=info); BENCH_CLUSTER_LOG_LEVEL=warn measures without the access log.
  const env = {
    LOG_LEVEL: process.env['BENCH_CLUSTER_LOG_LEVEL'] ?? 'info',
    POOL_MAX_QUEUE: String(o.batches * 10 + 10),
    EVALUATION_TIMEOUT_MS: '600000',
  };
  const children: Child[] = [];
  const dirs: string[] = [];
  let redis: BenchRedis | undefined;
  try {
    const p = await prepare(scenarios);
    dirs.push(removeAtExit(p.dataDir));
    const lmdbNode = await startService(p.dataDir, env);
    children.push(lmdbNode);
    const lmdb: Deployment = {
      name: 'lmdb',
      nodes: [lmdbNode],
      credentials: p.credentials,
      readPath: await completedEvaluation(lmdbNode, p.credentials),
    };

    const r = await startBenchRedis();
    redis = r;
    const secrets = {
      GOV_KEY_PEPPER: randomBytes(32).toString('hex'),
      GOV_MASTER_KEY: randomBytes(32).toString('hex'),
    };
    const prefix = 'bench:';
    const pr = await prepareRedis(r.url, prefix, secrets, scenarios);
    const redisEnv = { ...env, ...secrets, STORE: 'redis', REDIS_URL: r.url, REDIS_PREFIX: prefix };
    const redisNodes: Child[] = [];
    const addNode = async (): Promise<Child> => {
      const dir = mkdtempSync(join(tmpdir(), 'gov-bench-node-'));
      dirs.push(removeAtExit(dir));
      const node = await startService(dir, redisEnv);
      children.push(node);
      redisNodes.push(node);
      return node;
    };
    const node1 = await addNode();
    const readPath = await completedEvaluation(node1, pr.credentials);
    const cluster = (n: number): Deployment => ({
      name: `redis-${n}`,
      nodes: redisNodes.slice(0, n),
      redis: r,
      credentials: pr.credentials,
      readPath,
    });
    // A first run of the request path on each node, for the JIT (as the signed-reads benchmark does).
    const warm = (d: Deployment, node: Child) =>
      runWrk({
        url: node.url,
        path: d.readPath,
        credentials: d.credentials,
        connections,
        durationS: 1,
        uniqueRequests: 50_000,
      });
    await warm(lmdb, lmdbNode);
    await warm(cluster(1), node1);

    const points: ClusterPoint[] = [];
    const point = (d: Deployment, reads: ReadRound[], batches: BatchRun[]): ClusterPoint => ({
      name: d.name,
      nodes: d.nodes.length,
      reads: medianReads(reads),
      readRounds: reads,
      batches: medianBatches(batches),
      batchRounds: batches,
    });
    // Rounds alternate between the deployments measured together (LMDB and 1-node Redis, which the
    // targets compare), so a slow spell of the shared machine lands on both; the batches' warm-up
    // precedes the first round only.
    const together = async (ds: readonly Deployment[]): Promise<void> => {
      const reads = ds.map((): ReadRound[] => []);
      const batches = ds.map((): BatchRun[] => []);
      for (let round = 0; round < o.rounds; round++)
        for (const [i, d] of ds.entries()) reads[i]!.push(await measureReads(d, o.readSeconds, connections));
      for (let round = 0; round < batchRounds; round++)
        for (const [i, d] of ds.entries())
          batches[i]!.push(await measureBatches(d, o.batches, round === 0 ? o.batches : 0));
      for (const [i, d] of ds.entries()) points.push(point(d, reads[i]!, batches[i]!));
    };
    await together([lmdb, cluster(1)]);
    for (let n = 2; n <= maxNodes; n++) {
      await warm(cluster(n), await addNode());
      await together([cluster(n)]);
    }
    return { connections, readSeconds: o.readSeconds, rounds: o.rounds, batchRounds, batches: o.batches, points };
  } finally {
    for (const c of children) await c.stop();
    await redis?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
