/**
 * @module ops/panels: every dashboard panel as data (title, PromQL, unit, legend). The Grafana
 * dashboards are built from these tables and the Prometheus test runs every expression, so a
 * panel that shows no data fails the suite.
 */

/** One panel. `kind` picks the visualisation. */
export interface PanelSpec {
  readonly title: string;
  readonly description: string;
  readonly kind: 'timeseries' | 'stat';
  readonly unit: string;
  readonly queries: readonly { readonly expr: string; readonly legend: string }[];
}

/** One dashboard. */
export interface DashboardSpec {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly rows: readonly { readonly title: string; readonly panels: readonly PanelSpec[] }[];
}

/** A time-series panel: one query per `[expr, legend]`. */
export const ts = (title: string, description: string, unit: string, ...queries: [string, string][]): PanelSpec => ({
  title,
  description,
  kind: 'timeseries',
  unit,
  queries: queries.map(([expr, legend]) => ({ expr, legend })),
});
/** A stat panel of one query. */
export const stat = (title: string, description: string, unit: string, expr: string): PanelSpec => ({
  title,
  description,
  kind: 'stat',
  unit,
  queries: [{ expr, legend: title }],
});
/** `histogram_quantile` of a histogram's 5-minute rate, by `le` and the labels in `by` (comma-separated, or empty). */
export const q = (quantile: number, metric: string, by: string) =>
  `histogram_quantile(${quantile}, sum by (le${by ? `, ${by}` : ''}) (rate(${metric}_bucket[5m])))`;

/** Service overview: RED per route, saturation of pool and store, rate-limit pressure. */
export const SERVICE_OVERVIEW: DashboardSpec = {
  uid: 'gov-service-overview',
  title: 'Governance Evaluation Service: overview',
  description: 'Requests, errors and latency per route; pool and store saturation; rate-limit pressure.',
  rows: [
    {
      title: 'Requests (RED)',
      panels: [
        ts('Request rate by route', 'Requests per second by route template', 'reqps', [
          'sum by (route) (rate(gov_http_requests_total[5m]))',
          '{{route}}',
        ]),
        ts('Responses by status class', 'Requests per second by status class', 'reqps', [
          'sum by (status_class) (rate(gov_http_requests_total[5m]))',
          '{{status_class}}',
        ]),
        stat(
          '5xx error ratio',
          'Share of responses that are 5xx',
          'percentunit',
          '(sum(rate(gov_http_requests_total{status_class="5xx"}[5m])) or vector(0)) / sum(rate(gov_http_requests_total[5m]))',
        ),
        ts(
          'Latency p50 / p99 by route',
          'Request latency percentiles per route template',
          's',
          [q(0.5, 'gov_http_request_duration_seconds', 'route'), 'p50 {{route}}'],
          [q(0.99, 'gov_http_request_duration_seconds', 'route'), 'p99 {{route}}'],
        ),
        ts('In-flight requests', 'Requests being handled', 'short', ['gov_http_requests_in_flight', 'in flight']),
        ts('Refusals by reason', '401/403/413/422/429 per second by reason', 'reqps', [
          'sum by (status, reason) (rate(gov_http_rejections_total[5m]))',
          '{{status}} {{reason}}',
        ]),
        ts(
          'Traffic',
          'Request and response bytes per second',
          'Bps',
          ['sum(rate(gov_http_request_bytes_total[5m]))', 'in'],
          ['sum(rate(gov_http_response_bytes_total[5m]))', 'out'],
        ),
      ],
    },
    {
      title: 'Saturation',
      panels: [
        ts(
          'Pool saturation',
          'Tasks in flight ÷ capacity, and piscina utilisation',
          'percentunit',
          ['gov_pool_tasks_in_flight / gov_pool_capacity_tasks', 'in flight / capacity'],
          ['gov_pool_utilization_ratio', 'utilisation'],
        ),
        ts(
          'Pool queue depth and workers',
          'Tasks waiting for a worker; worker threads alive',
          'short',
          ['gov_pool_queue_depth', 'queued'],
          ['gov_pool_workers', 'workers'],
        ),
        stat(
          'Store used',
          'LMDB bytes in use ÷ map size',
          'percentunit',
          'gov_store_used_bytes / gov_store_map_size_bytes',
        ),
        ts('Store records', 'Records per table', 'short', ['gov_store_records', '{{table}}']),
        ts('Store write latency p99', 'Evaluation write transactions until commit', 's', [
          q(0.99, 'gov_store_write_transaction_seconds', ''),
          'p99',
        ]),
        ts(
          'Process memory',
          'Resident memory and V8 heap in use',
          'bytes',
          ['process_resident_memory_bytes', 'rss'],
          ['nodejs_heap_size_used_bytes', 'heap used'],
        ),
      ],
    },
    {
      title: 'Rate limits',
      panels: [
        ts('Calls refused by rate limits', 'Per second, by window', 'reqps', [
          'sum by (window) (rate(gov_rate_limited_total[5m]))',
          '{{window}}',
        ]),
        stat(
          'Keys near their limit',
          'Keys that used 80% or more of a window',
          'short',
          'gov_rate_limit_keys_near_limit',
        ),
      ],
    },
  ],
};

/** Evaluations: throughput, latency percentiles, violations, failing scenarios. */
export const EVALUATIONS: DashboardSpec = {
  uid: 'gov-evaluations',
  title: 'Governance Evaluation Service: evaluations',
  description: 'Batches, scenarios, engine and completion latency, violations found, failing scenarios.',
  rows: [
    {
      title: 'Throughput',
      panels: [
        ts('Batches by kind', 'Evaluations submitted per second (stored, ephemeral, inline)', 'reqps', [
          'sum by (kind) (rate(gov_evaluation_batches_total[5m]))',
          '{{kind}}',
        ]),
        ts('Scenarios by outcome', 'Scenarios evaluated per second', 'reqps', [
          'sum by (outcome) (rate(gov_scenarios_evaluated_total[5m]))',
          '{{outcome}}',
        ]),
        stat(
          'Failing scenarios',
          'Share of scenarios that ended in an error',
          'percentunit',
          '(sum(rate(gov_scenarios_evaluated_total{outcome!="ok"}[5m])) or vector(0)) / sum(rate(gov_scenarios_evaluated_total[5m]))',
        ),
        ts('Open evaluations', 'Evaluations not yet terminal, by status', 'short', ['gov_evaluations', '{{status}}']),
        ts(
          'Finished evaluations',
          'Per second, by terminal status; and deleted by retention (EVALUATION_RETENTION_DAYS)',
          'reqps',
          ['sum by (status) (rate(gov_evaluations_finished_total[5m]))', '{{status}}'],
          ['sum(rate(gov_evaluations_retired_total[5m]))', 'retired'],
        ),
      ],
    },
    {
      title: 'Latency',
      panels: [
        ts(
          'Engine time per scenario',
          'p50 / p90 / p99 of parse and policies in the worker',
          's',
          [q(0.5, 'gov_scenario_evaluation_seconds', ''), 'p50'],
          [q(0.9, 'gov_scenario_evaluation_seconds', ''), 'p90'],
          [q(0.99, 'gov_scenario_evaluation_seconds', ''), 'p99'],
        ),
        ts(
          'Submit to complete',
          'p50 / p99 of the time from submit to a terminal status',
          's',
          [q(0.5, 'gov_evaluation_completion_seconds', ''), 'p50'],
          [q(0.99, 'gov_evaluation_completion_seconds', ''), 'p99'],
        ),
        ts('Pool wait', 'p99 time a task waited for a worker', 's', [q(0.99, 'gov_pool_task_wait_seconds', ''), 'p99']),
      ],
    },
    {
      title: 'Findings',
      panels: [
        ts('Violations by category', 'Violations found per second by policy category', 'short', [
          'sum by (category) (rate(gov_violations_total[5m]))',
          '{{category}}',
        ]),
        ts('Violations by severity', 'Violations found per second by severity', 'short', [
          'sum by (severity) (rate(gov_violations_total[5m]))',
          '{{severity}}',
        ]),
        ts('Worker failures', 'Tasks that ended a worker, by reason', 'short', [
          'sum by (reason) (rate(gov_pool_worker_failures_total[5m])) or vector(0)',
          '{{reason}}',
        ]),
      ],
    },
  ],
};

/** Webhooks and result tokens. */
export const WEBHOOKS_TOKENS: DashboardSpec = {
  uid: 'gov-webhooks-tokens',
  title: 'Governance Evaluation Service: webhooks and tokens',
  description: 'Webhook deliveries, retries and latency; result tokens issued, redeemed and refused.',
  rows: [
    {
      title: 'Webhooks',
      panels: [
        ts('Deliveries by result', 'Delivery attempts per second (delivered, retry, failed, blocked)', 'reqps', [
          'sum by (result) (rate(gov_webhook_deliveries_total[5m]))',
          '{{result}}',
        ]),
        stat('Outbox depth', 'Deliveries waiting (retry queue)', 'short', 'gov_webhook_outbox_depth'),
        ts('Delivery latency p99', 'Time of one attempt', 's', [q(0.99, 'gov_webhook_delivery_seconds', ''), 'p99']),
      ],
    },
    {
      title: 'Result tokens',
      panels: [
        ts(
          'Tokens issued and redeemed',
          'Per second',
          'reqps',
          ['sum(rate(gov_result_tokens_issued_total[5m]))', 'issued'],
          ['sum(rate(gov_result_tokens_redeemed_total[5m]))', 'redeemed'],
        ),
        ts('Token redemptions refused', 'Per second, by reason', 'reqps', [
          'sum by (reason) (rate(gov_result_tokens_rejected_total[5m]))',
          '{{reason}}',
        ]),
      ],
    },
  ],
};

/** All dashboards. */
export const DASHBOARDS: readonly DashboardSpec[] = [SERVICE_OVERVIEW, EVALUATIONS, WEBHOOKS_TOKENS];
