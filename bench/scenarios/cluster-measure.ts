/**
 * @module bench/scenarios/cluster-measure: the two measurements of the cluster benchmark on one
 * deployment (an LMDB node, or 1-3 nodes on one Redis): signed reads with wrk against every node at
 * once, and saturated stored batches submitted through every node; each with the CPU of all the
 * deployment's node processes and of redis-server, and Redis's command counters, over the interval.
 */
import { GovernanceClient } from '@gov/sdk';
import { sampleCpu, type CpuSampler } from '../lib/cpu-sampler.js';
import type { Child } from '../lib/processes.js';
import { median } from '../lib/stats.js';
import { redisCost, type BenchRedis, type RedisCost, type RedisCounters } from '../lib/redis-server.js';
import { prepareWrk } from '../lib/wrk.js';
import { warmAndMeasure } from './batches.js';

/** One deployment under test. */
export interface Deployment {
  /** `lmdb`, `redis-1`, `redis-2`, `redis-3`. */
  readonly name: string;
  readonly nodes: readonly Child[];
  /** The Redis of a cluster-mode deployment (absent for LMDB). */
  readonly redis?: BenchRedis;
  readonly credentials: { apiKey: string; signingSecret: string };
  /** `GET` path of a completed evaluation of this deployment's store. */
  readonly readPath: string;
}

/** One round of signed reads on a deployment (latencies in ms, CPU in µs). */
export interface ReadRound {
  /** Requests per second answered by all nodes together. */
  readonly requestsPerSec: number;
  /** Requests answered. */
  readonly total: number;
  /** The highest of the nodes' medians and 99th percentiles (each node has its own wrk). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors plus statuses ≥ 400. */
  readonly errors: number;
  /** CPU time of all node processes (every thread) per answered request, in µs. */
  readonly cpuUsPerRequest: number;
  /** What Redis did per request (absent for LMDB). */
  readonly redis?: RedisCost;
}

async function countersOf(d: Deployment): Promise<RedisCounters | undefined> {
  return d.redis ? d.redis.counters() : undefined;
}

const nodeCpu = (d: Deployment): number => d.nodes.reduce((a, n) => a + n.cpuSeconds(), 0);

/**
 * Signed `GET` of one completed evaluation for `durationS` seconds: one wrk per node, all started
 * together, `connections` split evenly over them (rounded up), each request pre-signed and unique.
 */
export async function measureReads(d: Deployment, durationS: number, connections: number): Promise<ReadRound> {
  const per = Math.ceil(connections / d.nodes.length);
  const runs = d.nodes.map((n) =>
    prepareWrk({
      url: n.url,
      path: d.readPath,
      credentials: d.credentials,
      connections: per,
      durationS,
      uniqueRequests: Math.ceil((durationS * 160_000) / d.nodes.length),
    }),
  );
  try {
    const redis0 = await countersOf(d);
    const cpu0 = nodeCpu(d);
    const results = await Promise.all(runs.map((r) => r.run()));
    const cpu1 = nodeCpu(d);
    const redis1 = await countersOf(d);
    const total = results.reduce((a, r) => a + r.total, 0);
    return {
      requestsPerSec: results.reduce((a, r) => a + r.requestsPerSec, 0),
      total,
      p50Ms: Math.max(...results.map((r) => r.p50Ms)),
      p99Ms: Math.max(...results.map((r) => r.p99Ms)),
      errors: results.reduce((a, r) => a + r.errors + r.non2xx, 0),
      cpuUsPerRequest: ((cpu1 - cpu0) * 1e6) / Math.max(1, total),
      ...(redis0 && redis1 ? { redis: redisCost(redis0, redis1, total) } : {}),
    };
  } finally {
    for (const r of runs) r.dispose();
  }
}

/** Saturated stored batches on a deployment (CPU in µs). */
export interface BatchRun {
  readonly scenarios: number;
  /** First `created_at` to last `completed_at` (server clock), in seconds. */
  readonly seconds: number;
  readonly scenariosPerSec: number;
  /** CPU of all node processes over that span per scenario, in µs. */
  readonly cpuUsPerScenario: number;
  /** redis-server CPU over that span per scenario, in µs (absent for LMDB). */
  readonly redisCpuUsPerScenario?: number;
  /**
   * Redis's counters from the first measured submit until every batch was polled complete, per
   * scenario: the submits, chunk jobs, commits and the clients' polls at the spec's backoff (absent for LMDB).
   */
  readonly redis?: RedisCost;
}

/**
 * `batches` batches of 10 stored scenarios after `warmBatches` for warm-up (bench/scenarios/batches: 16
 * submitters, spread over the nodes round-robin, each batch polled through the node it was
 * submitted to). CPU is sampled every 50 ms and read off over the server-side span.
 */
export async function measureBatches(d: Deployment, batches: number, warmBatches: number): Promise<BatchRun> {
  const clients = d.nodes.map((n) => new GovernanceClient({ baseUrl: n.url, ...d.credentials }));
  const redis = d.redis;
  let sampler: CpuSampler | undefined;
  let redis0: RedisCounters | undefined;
  try {
    const span = await warmAndMeasure(
      clients,
      batches,
      { deployment: d.name },
      {
        warmBatches,
        beforeMeasure: async () => {
          redis0 = await countersOf(d);
          sampler = sampleCpu([() => nodeCpu(d), ...(redis ? [() => redis.cpuSeconds()] : [])]);
        },
      },
    );
    sampler!.stop();
    const redis1 = await countersOf(d);
    const [nodes = 0, redisCpu] = sampler!.between(span.firstMs, span.lastMs);
    const seconds = (span.lastMs - span.firstMs) / 1000;
    return {
      scenarios: span.scenarios,
      seconds,
      scenariosPerSec: span.scenarios / seconds,
      cpuUsPerScenario: (nodes * 1e6) / span.scenarios,
      ...(redisCpu !== undefined ? { redisCpuUsPerScenario: (redisCpu * 1e6) / span.scenarios } : {}),
      ...(redis0 && redis1 ? { redis: redisCost(redis0, redis1, span.scenarios) } : {}),
    };
  } finally {
    sampler?.stop();
  }
}

/** Every figure of `rounds` replaced by its median over the rounds (Redis's top commands: of the median round by node CPU). */
export function medianReads(rounds: readonly ReadRound[]): ReadRound {
  const m = (f: (r: ReadRound) => number) => median(rounds.map(f));
  const byCpu = [...rounds].sort((a, b) => a.cpuUsPerRequest - b.cpuUsPerRequest)[Math.floor(rounds.length / 2)]!;
  return {
    requestsPerSec: m((r) => r.requestsPerSec),
    total: m((r) => r.total),
    p50Ms: m((r) => r.p50Ms),
    p99Ms: m((r) => r.p99Ms),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    cpuUsPerRequest: m((r) => r.cpuUsPerRequest),
    ...(byCpu.redis
      ? {
          redis: medianCost(
            rounds.map((r) => r.redis!),
            byCpu.redis,
          ),
        }
      : {}),
  };
}

/** Every figure of `rounds` replaced by its median over the rounds. */
export function medianBatches(rounds: readonly BatchRun[]): BatchRun {
  const m = (f: (r: BatchRun) => number) => median(rounds.map(f));
  const byCpu = [...rounds].sort((a, b) => a.cpuUsPerScenario - b.cpuUsPerScenario)[Math.floor(rounds.length / 2)]!;
  return {
    scenarios: m((r) => r.scenarios),
    seconds: m((r) => r.seconds),
    scenariosPerSec: m((r) => r.scenariosPerSec),
    cpuUsPerScenario: m((r) => r.cpuUsPerScenario),
    ...(byCpu.redisCpuUsPerScenario !== undefined ? { redisCpuUsPerScenario: m((r) => r.redisCpuUsPerScenario!) } : {}),
    ...(byCpu.redis
      ? {
          redis: medianCost(
            rounds.map((r) => r.redis!),
            byCpu.redis,
          ),
        }
      : {}),
  };
}

function medianCost(costs: readonly RedisCost[], top: RedisCost): RedisCost {
  return {
    commandsPer: median(costs.map((c) => c.commandsPer)),
    readsPer: median(costs.map((c) => c.readsPer)),
    cpuUsPer: median(costs.map((c) => c.cpuUsPer)),
    top: top.top,
  };
}
