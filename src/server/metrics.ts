/**
 * @module server/metrics: every Prometheus metric of the service, in one place (prom-client).
 * Base units and Prometheus suffixes (`_seconds`, `_bytes`, `_total`); bounded labels only (route
 * template, method, status class, error reason from the error table, policy category, severity;
 * never ids or keys). Hot-path updates go through cached label children. Gauges that need the store
 * or the pool are computed on scrape, never per request.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { readBuildInfo, type BuildInfo } from './build-info.js';

/** Latency buckets in seconds: 100 µs to 10 s (uWS answers signed reads in tens of µs). */
const LATENCY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
/** Evaluation buckets in seconds: 100 µs to 60 s. */
const EVALUATION_BUCKETS = [
  0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

interface RouteStats {
  readonly route: string;
  readonly method: string;
  /** Requests by status class index (status / 100: 1xx..5xx). */
  readonly classes: number[];
  bytesIn: number;
  bytesOut: number;
  /** Latency bucket counts (not cumulative), one per LATENCY_BUCKETS entry plus +Inf. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

type MetricValue = { labels: Record<string, string>; value: number; metricName?: string };

/**
 * The HTTP metrics of every request, kept in plain counters (nested maps, no label hashing, no
 * string building) and turned into Prometheus series only when scraped: prom-client re-hashes the
 * label set on every `inc`/`observe`, even on bound children, which cost ~10% of the throughput of
 * signed reads. Series names and labels are those of docs/operations.md.
 */
export class HttpStats {
  private readonly byRoute = new Map<string, Map<string, RouteStats>>();
  inFlight = 0;

  constructor(registry: Registry) {
    const all = () => [...this.byRoute.values()].flatMap((m) => [...m.values()]);
    const metric = (
      name: string,
      help: string,
      type: 'counter' | 'gauge' | 'histogram',
      values: () => MetricValue[],
    ) => {
      registry.registerMetric({
        name,
        help,
        type,
        get: () => Promise.resolve({ name, help, type, values: values(), aggregator: 'sum' }),
        reset: () => undefined,
      } as never);
    };
    metric('gov_http_requests_total', 'HTTP requests by route template, method and status class', 'counter', () =>
      all().flatMap((r) =>
        r.classes.flatMap((n, i) =>
          n > 0 ? [{ labels: { route: r.route, method: r.method, status_class: `${i}xx` }, value: n }] : [],
        ),
      ),
    );
    metric('gov_http_request_bytes_total', 'Request body bytes received, by route template', 'counter', () =>
      sumBy(all(), (r) => r.bytesIn),
    );
    metric('gov_http_response_bytes_total', 'Response body bytes sent, by route template', 'counter', () =>
      sumBy(all(), (r) => r.bytesOut),
    );
    metric('gov_http_requests_in_flight', 'HTTP requests being handled', 'gauge', () => [
      { labels: {}, value: this.inFlight },
    ]);
    metric('gov_http_request_duration_seconds', 'HTTP request latency by route template and method', 'histogram', () =>
      all().flatMap((r) => {
        const labels = { route: r.route, method: r.method };
        const out: MetricValue[] = [];
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += r.buckets[i]!;
          out.push({
            labels: { ...labels, le: String(le) },
            value: cumulative,
            metricName: 'gov_http_request_duration_seconds_bucket',
          });
        });
        out.push({
          labels: { ...labels, le: '+Inf' },
          value: r.count,
          metricName: 'gov_http_request_duration_seconds_bucket',
        });
        out.push({ labels, value: r.sum, metricName: 'gov_http_request_duration_seconds_sum' });
        out.push({ labels, value: r.count, metricName: 'gov_http_request_duration_seconds_count' });
        return out;
      }),
    );
  }

  /** Counts one request (hot path: a few map look-ups and additions). */
  record(route: string, method: string, status: number, seconds: number, bytesIn: number, bytesOut: number): void {
    let methods = this.byRoute.get(route);
    if (!methods) {
      methods = new Map();
      this.byRoute.set(route, methods);
    }
    let r = methods.get(method);
    if (!r) {
      r = {
        route,
        method,
        classes: [0, 0, 0, 0, 0, 0],
        bytesIn: 0,
        bytesOut: 0,
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      methods.set(method, r);
    }
    r.classes[Math.min(5, Math.floor(status / 100))]!++;
    r.bytesIn += bytesIn;
    r.bytesOut += bytesOut;
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[b]!) b++;
    r.buckets[b]!++;
    r.sum += seconds;
    r.count++;
  }
}

function sumBy(rows: readonly RouteStats[], f: (r: RouteStats) => number): MetricValue[] {
  const byRoute = new Map<string, number>();
  for (const r of rows) byRoute.set(r.route, (byRoute.get(r.route) ?? 0) + f(r));
  return [...byRoute].map(([route, value]) => ({ labels: { route }, value }));
}

/** Error strings → bounded `reason` label values (the error table is the bound). */
export function reasonLabel(error: string): string {
  return error
    .toLowerCase()
    .replace(/: .*$/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 60);
}

/** The service's metrics. */
export class Metrics {
  readonly registry = new Registry();
  /** HTTP request counters and latency: aggregated in plain JS on the hot path, published on scrape. */
  readonly http: HttpStats;
  readonly httpRejections = new Counter({
    name: 'gov_http_rejections_total',
    help: 'Requests refused with 401/403/413/422/429, by status and reason',
    labelNames: ['status', 'reason'] as const,
    registers: [this.registry],
  });
  readonly batches = new Counter({
    name: 'gov_evaluation_batches_total',
    help: 'Evaluations submitted by kind (stored, ephemeral, inline)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly scenarios = new Counter({
    name: 'gov_scenarios_evaluated_total',
    help: 'Scenarios evaluated by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly scenarioSeconds = new Histogram({
    name: 'gov_scenario_evaluation_seconds',
    help: 'Engine time per scenario (parse and policies), measured in the worker',
    buckets: EVALUATION_BUCKETS,
    registers: [this.registry],
  });
  readonly completionSeconds = new Histogram({
    name: 'gov_evaluation_completion_seconds',
    help: 'Time from submit to a terminal status',
    labelNames: ['status'] as const,
    buckets: EVALUATION_BUCKETS,
    registers: [this.registry],
  });
  readonly evaluationsFinished = new Counter({
    name: 'gov_evaluations_finished_total',
    help: 'Evaluations that reached a terminal status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly evaluationsRetired = new Counter({
    name: 'gov_evaluations_retired_total',
    help: 'Stored evaluations deleted by retention (EVALUATION_RETENTION_DAYS) on this node',
    registers: [this.registry],
  });
  readonly evaluationsOpen = new Gauge({
    name: 'gov_evaluations',
    help: 'Evaluations not yet terminal, by status (refreshed on scrape)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly violations = new Counter({
    name: 'gov_violations_total',
    help: 'Violations found by policy category and severity',
    labelNames: ['category', 'severity'] as const,
    registers: [this.registry],
  });
  readonly poolQueue = new Gauge({
    name: 'gov_pool_queue_depth',
    help: 'Scenario tasks waiting for a worker',
    registers: [this.registry],
  });
  readonly poolInFlight = new Gauge({
    name: 'gov_pool_tasks_in_flight',
    help: 'Tasks queued or running',
    registers: [this.registry],
  });
  readonly poolCapacity = new Gauge({
    name: 'gov_pool_capacity_tasks',
    help: 'Most tasks accepted in flight (queue limit + threads)',
    registers: [this.registry],
  });
  readonly poolWorkers = new Gauge({
    name: 'gov_pool_workers',
    help: 'Worker threads alive',
    registers: [this.registry],
  });
  readonly poolUtilization = new Gauge({
    name: 'gov_pool_utilization_ratio',
    help: 'Pool utilisation 0..1 (piscina estimate)',
    registers: [this.registry],
  });
  readonly poolWait = new Histogram({
    name: 'gov_pool_task_wait_seconds',
    help: 'Time a task waited for a worker',
    buckets: EVALUATION_BUCKETS,
    registers: [this.registry],
  });
  readonly poolCrashes = new Counter({
    name: 'gov_pool_worker_failures_total',
    help: 'Tasks that ended a worker (crash, out of memory, time-out)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly storeMapSize = new Gauge({
    name: 'gov_store_map_size_bytes',
    help: 'LMDB map size (the most the store may grow to)',
    registers: [this.registry],
  });
  readonly storeUsed = new Gauge({
    name: 'gov_store_used_bytes',
    help: 'LMDB bytes in use (last page × page size)',
    registers: [this.registry],
  });
  readonly storeRecords = new Gauge({
    name: 'gov_store_records',
    help: 'Records per table (LMDB statistics, refreshed on scrape)',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });
  readonly storeWriteFailures = new Counter({
    name: 'gov_store_write_failures_total',
    help: 'Write transactions of an actor that failed (the evaluation ends as error; a webhook delivery is retried)',
    labelNames: ['actor'] as const,
    registers: [this.registry],
  });
  readonly storeWriteSeconds = new Histogram({
    name: 'gov_store_write_transaction_seconds',
    help: 'Latency of evaluation write transactions until commit',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly chunkQueueJobs = new Gauge({
    name: 'gov_chunk_queue_jobs',
    help: 'Cluster mode: chunk jobs of the shared BullMQ queue by state (waiting, active, delayed, failed; refreshed on scrape)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly chunkJobsStalled = new Counter({
    name: 'gov_chunk_jobs_stalled_total',
    help: 'Cluster mode: chunk jobs this node found stalled (their node died or hung) and handed on',
    registers: [this.registry],
  });
  readonly redisCommandSeconds = new Histogram({
    name: 'gov_redis_command_seconds',
    help: 'Cluster mode: Redis round-trip latency seen by this node (a PING each second through the store connection)',
    labelNames: ['command'] as const,
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5],
    registers: [this.registry],
  });
  readonly redisUp = new Gauge({
    name: 'gov_redis_up',
    help: 'Cluster mode: 1 when Redis answered this node at the last scrape, else 0',
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'gov_rate_limited_total',
    help: 'Calls refused by a rate limit',
    labelNames: ['window'] as const,
    registers: [this.registry],
  });
  readonly keysNearLimit = new Gauge({
    name: 'gov_rate_limit_keys_near_limit',
    help: 'Keys that used 80% or more of a window (refreshed on scrape)',
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'gov_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly webhookSeconds = new Histogram({
    name: 'gov_webhook_delivery_seconds',
    help: 'Webhook attempt latency',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly webhookOutbox = new Gauge({
    name: 'gov_webhook_outbox_depth',
    help: 'Webhook deliveries pending (refreshed on scrape)',
    registers: [this.registry],
  });
  readonly tokensIssued = new Counter({
    name: 'gov_result_tokens_issued_total',
    help: 'Result tokens issued',
    registers: [this.registry],
  });
  readonly tokensRedeemed = new Counter({
    name: 'gov_result_tokens_redeemed_total',
    help: 'Result tokens redeemed (complete results returned)',
    registers: [this.registry],
  });
  readonly tokensRejected = new Counter({
    name: 'gov_result_tokens_rejected_total',
    help: 'Result token redemptions refused, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly buildInfo = new Gauge({
    name: 'gov_build_info',
    help: 'Always 1; the labels name the build: package version, git revision (GIT_REVISION or .git/HEAD, else unknown), Node.js version',
    labelNames: ['version', 'revision', 'node_version'] as const,
    registers: [this.registry],
  });

  private readonly collectors: (() => void | Promise<void>)[] = [];

  /**
   * @param options.defaultMetrics false leaves out prom-client's process and Node.js metrics.
   * @param options.build the labels of gov_build_info (default: readBuildInfo(), which throws ConfigError on a bad GIT_REVISION).
   */
  constructor(options: { defaultMetrics?: boolean; build?: BuildInfo } = {}) {
    this.http = new HttpStats(this.registry);
    this.buildInfo.set({ ...(options.build ?? readBuildInfo()) }, 1);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** Records one finished HTTP request (route `null` = unmatched). */
  request(
    route: string | null,
    method: string,
    status: number,
    seconds: number,
    bytesIn: number,
    bytesOut: number,
  ): void {
    this.http.record(route ?? 'unmatched', method, status, seconds, bytesIn, bytesOut);
  }

  /** Registers a callback run before each scrape (gauges from the store and the pool). */
  onCollect(fn: () => void | Promise<void>): void {
    this.collectors.push(fn);
  }

  /** Unregisters the cluster-mode metrics (queue, Redis) on a single node without Redis. */
  dropClusterMetrics(): void {
    for (const name of [
      'gov_chunk_queue_jobs',
      'gov_chunk_jobs_stalled_total',
      'gov_redis_command_seconds',
      'gov_redis_up',
    ])
      this.registry.removeSingleMetric(name);
  }

  /** The Prometheus text exposition (after every collector ran; a store read may be remote). */
  async render(): Promise<string> {
    for (const fn of this.collectors) await fn();
    return this.registry.metrics();
  }
}
