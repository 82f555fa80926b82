/** @module bench/scenarios/cluster-report: the cluster benchmark's figures as Markdown tables and one-line summaries. */
import type { ClusterBench, ClusterPoint } from './cluster.js';

const n0 = (x: number | undefined) =>
  x !== undefined && Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–';
const n1 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(1) : '–');
const n2 = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x.toFixed(2) : '–');
const label = (p: ClusterPoint) =>
  p.name === 'lmdb' ? 'LMDB, 1 node' : `Redis, ${p.nodes} node${p.nodes === 1 ? '' : 's'}`;

/** Two Markdown tables (signed reads; stored batches), one row per deployment. CPU in µs, latencies in ms. */
export function clusterTables(r: ClusterBench): string {
  const reads = [
    '| deployment | reads/s | p50 ms | p99 ms | errors | node CPU µs/req | Redis cmds/req | Redis socket reads/req | Redis CPU µs/req |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.points.map(
      (p) =>
        `| ${label(p)} | ${n0(p.reads.requestsPerSec)} | ${n2(p.reads.p50Ms)} | ${n2(p.reads.p99Ms)} | ${p.reads.errors} | ${n1(p.reads.cpuUsPerRequest)} | ${n2(p.reads.redis?.commandsPer)} | ${n2(p.reads.redis?.readsPer)} | ${n1(p.reads.redis?.cpuUsPer)} |`,
    ),
  ];
  const batches = [
    '| deployment | scenarios/s | node CPU µs/scenario | Redis CPU µs/scenario | Redis cmds/scenario | Redis socket reads/scenario |',
    '|---|---|---|---|---|---|',
    ...r.points.map(
      (p) =>
        `| ${label(p)} | ${n0(p.batches.scenariosPerSec)} | ${n0(p.batches.cpuUsPerScenario)} | ${n0(p.batches.redisCpuUsPerScenario)} | ${n1(p.batches.redis?.commandsPer)} | ${n1(p.batches.redis?.readsPer)} |`,
    ),
  ];
  return `${reads.join('\n')}\n\n${batches.join('\n')}`;
}

/** One line per deployment for the reads row's detail. */
export function readsDetail(r: ClusterBench): string {
  return r.points
    .map(
      (p) =>
        `${label(p)}: ${n0(p.reads.requestsPerSec)} req/s, p50 ${n2(p.reads.p50Ms)} / p99 ${n2(p.reads.p99Ms)} ms, node CPU ${n1(p.reads.cpuUsPerRequest)} µs/req` +
        (p.reads.redis
          ? `, Redis ${n2(p.reads.redis.commandsPer)} cmds (${n2(p.reads.redis.readsPer)} socket reads) and ${n1(p.reads.redis.cpuUsPer)} µs CPU/req`
          : '') +
        (p.reads.errors ? `, ${p.reads.errors} errors` : ''),
    )
    .join('; ');
}

/** One line per deployment for the batches row's detail. */
export function batchesDetail(r: ClusterBench): string {
  return r.points
    .map(
      (p) =>
        `${label(p)}: ${n0(p.batches.scenariosPerSec)} scenarios/s, node CPU ${n0(p.batches.cpuUsPerScenario)} µs/scenario` +
        (p.batches.redis
          ? `, Redis ${n0(p.batches.redisCpuUsPerScenario)} µs CPU and ${n1(p.batches.redis.commandsPer)} cmds/scenario`
          : ''),
    )
    .join('; ');
}
