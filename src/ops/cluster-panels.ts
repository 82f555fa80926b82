/**
 * @module ops/cluster-panels: the cluster dashboard of cluster mode (STORE=redis, issue 16): the nodes
 * side by side (`instance` = one node) and in total, the shared BullMQ chunk queue, and Redis as the
 * nodes see it. Provisioned by the cluster deployment only (docker-compose.cluster.yml, from
 * deploy/grafana/dashboards/), not beside the single-node dashboards of grafana/dashboards/: its
 * queue and Redis series exist only in cluster mode, and the Prometheus test of `DASHBOARDS` runs a
 * single LMDB node.
 *
 * Gauges read from shared state (`gov_chunk_queue_jobs`, `gov_evaluations`, `gov_store_*`) report the
 * same value on every node: they are aggregated with `max`, never `sum`. Counters and histograms are
 * per node: summed for the total.
 */
import { q, stat, ts, type DashboardSpec } from './panels.js';

/** The scrape job of every node (deploy/prometheus/prometheus.yml). */
const JOB = 'governance-evaluation-service';

/** Cluster view: nodes, chunk queue, Redis. */
export const CLUSTER: DashboardSpec = {
  uid: 'gov-cluster',
  title: 'Governance Evaluation Service: cluster',
  description:
    'Cluster mode: every node side by side and in total (requests, latency, CPU, event loop, pool), the shared chunk queue and Redis.',
  rows: [
    {
      title: 'Nodes',
      panels: [
        stat('Nodes up', 'Nodes answering their metrics scrape', 'short', `sum(up{job="${JOB}"})`),
        stat('Nodes reaching Redis', 'Nodes to which Redis answered at the last scrape', 'short', 'sum(gov_redis_up)'),
        ts(
          'Request rate per node',
          'Requests per second on each node and in total (the load balancer should spread them evenly)',
          'reqps',
          ['sum by (instance) (rate(gov_http_requests_total[5m]))', '{{instance}}'],
          ['sum(rate(gov_http_requests_total[5m]))', 'total'],
        ),
        ts(
          '5xx per node',
          'Responses with a 5xx status per second, by node (503: Redis unreachable, capacity, shutting down)',
          'reqps',
          ['sum by (instance) (rate(gov_http_requests_total{status_class="5xx"}[5m])) or vector(0)', '{{instance}}'],
        ),
        ts(
          'Latency p99 per node',
          'Request latency p99 on each node, and p50 / p99 over the whole cluster',
          's',
          [q(0.99, 'gov_http_request_duration_seconds', 'instance'), 'p99 {{instance}}'],
          [q(0.5, 'gov_http_request_duration_seconds', ''), 'p50 cluster'],
          [q(0.99, 'gov_http_request_duration_seconds', ''), 'p99 cluster'],
        ),
        ts(
          'CPU per node',
          'CPU time per second of each node process (main thread and evaluation workers), in cores, and in total',
          'short',
          ['sum by (instance) (rate(process_cpu_seconds_total[5m]))', '{{instance}}'],
          ['sum(rate(process_cpu_seconds_total[5m]))', 'total'],
        ),
        ts(
          'Event loop lag p99 per node',
          "p99 delay of each node's main event loop; a lag near CHUNK_LOCK_MS makes chunk jobs stall",
          's',
          ['max by (instance) (nodejs_eventloop_lag_p99_seconds)', '{{instance}}'],
        ),
        ts(
          'Pool utilisation per node',
          'Evaluation pool utilisation (piscina estimate) of each node, and the cluster average',
          'percentunit',
          ['max by (instance) (gov_pool_utilization_ratio)', '{{instance}}'],
          ['avg(gov_pool_utilization_ratio)', 'average'],
        ),
        ts(
          'Pool in flight ÷ capacity per node',
          'Scenario tasks queued or running on each node, as a share of what its pool accepts',
          'percentunit',
          ['max by (instance) (gov_pool_tasks_in_flight / gov_pool_capacity_tasks)', '{{instance}}'],
        ),
        ts(
          'Scenarios evaluated per node',
          'Scenarios per second each node evaluated from chunk jobs (and inline), and in total',
          'reqps',
          ['sum by (instance) (rate(gov_scenarios_evaluated_total[5m]))', '{{instance}}'],
          ['sum(rate(gov_scenarios_evaluated_total[5m]))', 'total'],
        ),
        ts('Resident memory per node', 'Resident memory of each node process', 'bytes', [
          'max by (instance) (process_resident_memory_bytes)',
          '{{instance}}',
        ]),
      ],
    },
    {
      title: 'Chunk queue',
      panels: [
        stat(
          'Chunk jobs waiting',
          'Chunk jobs (up to 10 scenarios each) waiting for a node',
          'short',
          'max(gov_chunk_queue_jobs{state="waiting"})',
        ),
        stat(
          'Chunk jobs failed',
          'Chunk jobs that failed all their attempts (kept a day)',
          'short',
          'max(gov_chunk_queue_jobs{state="failed"})',
        ),
        ts('Chunk jobs by state', 'Jobs of the shared queue by state (waiting, active, delayed, failed)', 'short', [
          'max by (state) (gov_chunk_queue_jobs)',
          '{{state}}',
        ]),
        ts(
          'Stalled chunk jobs',
          'Chunk jobs found stalled (their node died or hung) and handed on, per 5 minutes, by the node that found them',
          'short',
          ['sum by (instance) (increase(gov_chunk_jobs_stalled_total[5m]))', '{{instance}}'],
          ['sum(increase(gov_chunk_jobs_stalled_total[5m]))', 'total'],
        ),
        ts('Open evaluations', 'Evaluations not yet terminal, by status (shared state)', 'short', [
          'max by (status) (gov_evaluations)',
          '{{status}}',
        ]),
      ],
    },
    {
      title: 'Redis',
      panels: [
        ts('Redis up per node', '1 when Redis answered the node at its last scrape, else 0', 'short', [
          'max by (instance) (gov_redis_up)',
          '{{instance}}',
        ]),
        ts(
          'Redis commands per node',
          'Commands per second each node sends to Redis (blocking queue commands excluded), and in total',
          'ops',
          ['sum by (instance) (rate(gov_redis_command_seconds_count[5m]))', '{{instance}}'],
          ['sum(rate(gov_redis_command_seconds_count[5m]))', 'total'],
        ),
        ts(
          'Redis command latency per node',
          'p50 / p99 of Redis command latency as each node sees it (network included)',
          's',
          [q(0.5, 'gov_redis_command_seconds', 'instance'), 'p50 {{instance}}'],
          [q(0.99, 'gov_redis_command_seconds', 'instance'), 'p99 {{instance}}'],
        ),
        ts('Redis command latency p99 by command', 'p99 over all nodes, by command', 's', [
          q(0.99, 'gov_redis_command_seconds', 'command'),
          '{{command}}',
        ]),
        ts('Redis commands by command', 'Commands per second over all nodes, by command', 'ops', [
          'sum by (command) (rate(gov_redis_command_seconds_count[5m]))',
          '{{command}}',
        ]),
        ts(
          'Redis memory',
          'used_memory, and maxmemory when set (with noeviction, Redis refuses writes at maxmemory)',
          'bytes',
          ['max(gov_store_used_bytes)', 'used'],
          ['max(gov_store_map_size_bytes) > 0', 'maxmemory'],
        ),
        ts('Records', 'Records per kind (counters kept by the write scripts)', 'short', [
          'max by (table) (gov_store_records)',
          '{{table}}',
        ]),
      ],
    },
  ],
};

/** The dashboards of the cluster deployment (deploy/grafana/dashboards/<uid>.json). */
export const CLUSTER_DASHBOARDS: readonly DashboardSpec[] = [CLUSTER];
