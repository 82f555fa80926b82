/**
 * @module sdk/client: `GovernanceClient`, one method per public operation of the API (named by its
 * `operationId` in the OpenAPI document), plus `waitForEvaluation` and `results` for the typical flow
 * (spec §1): submit → poll until terminal → redeem the result token.
 */
import { GovernanceApiError, GovernanceTimeoutError } from './errors.js';
import { pollDelay, TERMINAL_STATUSES } from './polling.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { RequestSigner } from './signing.js';
import {
  realSleep,
  send,
  type CallOptions,
  type RequestSpec,
  type Sleep,
  type TransportSettings,
} from './transport.js';
import type { DataOf, Meta, OperationId, RequestBody, ResultsFetch } from './types.js';
import { SDK_VERSION } from './version.js';

/** Options of a client. Every duration is in milliseconds. */
export interface ClientOptions {
  /** The service's origin, e.g. `https://gov.example.com` (the `/api/public/v1` prefix is added). */
  readonly baseUrl: string;
  /** The API key, `<prefix>_live_<48 hex>` (spec §5). */
  readonly apiKey: string;
  /** The key's signing secret, `<prefix>_sig_<64 hex>` (design notes "Signing secret"). */
  readonly signingSecret: string;
  /** Total timeout of one call, attempts and retry waits included. Default 60 000. */
  readonly timeoutMs?: number;
  /** Timeout of one attempt; a timed-out attempt is retried as a network error. Default 15 000. */
  readonly attemptTimeoutMs?: number;
  /** Overrides of the retry matrix's bounds and delays (`DEFAULT_RETRY_POLICY`). */
  readonly retry?: Partial<RetryPolicy>;
  /** Current time in milliseconds since the epoch (signing, `Retry-After` dates). Default `Date.now`; for tests. */
  readonly clock?: () => number;
  /** Waits between retries and polls. Default a timer; for tests. */
  readonly sleep?: Sleep;
  /** Source of jitter in [0, 1). Default `Math.random`; for tests. */
  readonly random?: () => number;
}

/** A success: the envelope's `data` and `meta`, with the answer's status and headers. */
export interface ApiResult<D> {
  readonly data: D;
  readonly meta: Meta;
  /** 200, 201 or 202. */
  readonly status: number;
  /** The answer's headers (e.g. `x-ratelimit-remaining`, `etag`, `idempotent-replayed`). */
  readonly headers: Headers;
  readonly requestId: string | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number;
}

/** Options of `waitForEvaluation` and `results`. */
export interface WaitOptions {
  /** Aborts the wait and the poll in flight. */
  readonly signal?: AbortSignal;
  /** How long to wait for a terminal status in all, in milliseconds. Default 600 000 (10 min). */
  readonly timeoutMs?: number;
  /** Delays between polls in milliseconds, overriding the spec's guidance (the last value repeats). */
  readonly intervalsMs?: readonly number[];
}

/** What `waitForEvaluation` accepts: an evaluation id or the submit result (whose batch size picks the cadence). */
export type EvaluationRef = string | { readonly evaluation_id: string; readonly total_scenarios?: number };

/** What `results` needs of a submit result (`POST /evaluate`'s `data`). */
export interface SubmittedBatch {
  readonly evaluation_id: string;
  readonly total_scenarios?: number;
  /** Present for stored (`scenario_ids`) batches only. */
  readonly result_token?: string | null;
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * A signed client of the public API v1. Each method makes one logical call under the spec's retry matrix (§7)
 * and resolves to the success envelope's `data`, or rejects with a `GovernanceError`
 * (`GovernanceApiError` with `status`, `error`, `detail[]`, `requestId`, `retryAfter`).
 * @example
 * const gov = new GovernanceClient({ baseUrl, apiKey, signingSecret });
 * const submitted = (await gov.submitEvaluation({ scenario_ids: ['4417'] })).data;
 * await gov.waitForEvaluation(submitted);
 * const results = await gov.results(submitted);
 */
export class GovernanceClient {
  private readonly settings: TransportSettings;

  constructor(options: ClientOptions) {
    const clock = options.clock ?? Date.now;
    this.settings = {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      signer: new RequestSigner(options.signingSecret, clock),
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      attemptTimeoutMs: options.attemptTimeoutMs ?? 15_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      clock,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      userAgent: `gov-sdk/${SDK_VERSION} node/${process.versions.node}`,
    };
  }

  /** `POST /evaluate`: submit 1 to 10 stored scenarios (`scenario_ids`) or ephemeral `blueprints` (spec §4). */
  submitEvaluation(body: RequestBody<'submitEvaluation'>, options?: CallOptions) {
    return this.call<'submitEvaluation'>({ method: 'POST', path: '/evaluate', body }, options);
  }

  /** `POST /evaluate/inline`: synchronous, ephemeral evaluation of one blueprint (spec §4). */
  evaluateInline(body: RequestBody<'evaluateInline'>, options?: CallOptions) {
    return this.call<'evaluateInline'>({ method: 'POST', path: '/evaluate/inline', body }, options);
  }

  /** `GET /evaluations/{id}`: the status view (spec §2). */
  getEvaluation(evaluationId: string, options?: CallOptions) {
    return this.call<'getEvaluation'>({ method: 'GET', path: `/evaluations/${enc(evaluationId)}` }, options);
  }

  /** `GET /scenarios/{id}/results`: the scenario's latest results (spec §2). */
  getScenarioResults(scenarioId: string, options?: CallOptions) {
    return this.call<'getScenarioResults'>({ method: 'GET', path: `/scenarios/${enc(scenarioId)}/results` }, options);
  }

  /**
   * `GET /violations/{scenario_id}:{policy_code}/remediation`; `500 Remediation generation failed` is retried
   * (spec §7). @param violationId `<scenario id>:<policy code>`, split at its last `:`.
   */
  getRemediation(violationId: string, options?: CallOptions) {
    const at = violationId.lastIndexOf(':');
    const id = at < 0 ? enc(violationId) : `${enc(violationId.slice(0, at))}:${enc(violationId.slice(at + 1))}`;
    return this.call<'getRemediation'>({ method: 'GET', path: `/violations/${id}/remediation` }, options);
  }

  /** `POST /results/fetch`: redeem a result token once (not consumed while the evaluation is not complete). */
  fetchResults(resultToken: string, options?: CallOptions) {
    return this.call<'fetchResults'>(
      { method: 'POST', path: '/results/fetch', body: { result_token: resultToken } },
      options,
    );
  }

  /** `GET /governance/policies`: the caller's effective policy catalog (safe to cache for 24 h). */
  listPolicies(options?: CallOptions) {
    return this.call<'listPolicies'>({ method: 'GET', path: '/governance/policies' }, options);
  }

  /** `GET /organization/rollup`: the organization-wide score, top violations and framework coverage. */
  getOrganizationRollup(options?: CallOptions) {
    return this.call<'getOrganizationRollup'>({ method: 'GET', path: '/organization/rollup' }, options);
  }

  /** `GET /governance/settings` (`governance:manage`). */
  getGovernanceSettings(options?: CallOptions) {
    return this.call<'getGovernanceSettings'>({ method: 'GET', path: '/governance/settings' }, options);
  }

  /**
   * `PUT /governance/settings` (`governance:manage`); `ifMatch` (the `ETag` of the version read) makes it
   * conditional: 412 `Settings version mismatch` otherwise.
   */
  putGovernanceSettings(
    body: RequestBody<'putGovernanceSettings'>,
    options?: CallOptions & { readonly ifMatch?: string },
  ) {
    const headers = { ...options?.headers, ...(options?.ifMatch !== undefined ? { 'if-match': options.ifMatch } : {}) };
    return this.call<'putGovernanceSettings'>(
      { method: 'PUT', path: '/governance/settings', body },
      { ...options, headers },
    );
  }

  /** `POST /governance/rules`: create a custom rule (docs/custom-rules.md). */
  createCustomRule(body: RequestBody<'createCustomRule'>, options?: CallOptions) {
    return this.call<'createCustomRule'>({ method: 'POST', path: '/governance/rules', body }, options);
  }

  /** `GET /governance/rules`: the custom rules in force. */
  listCustomRules(options?: CallOptions) {
    return this.call<'listCustomRules'>({ method: 'GET', path: '/governance/rules' }, options);
  }

  /** `GET /governance/rules/{code}` (deleted rules too). */
  getCustomRule(code: string, options?: CallOptions) {
    return this.call<'getCustomRule'>({ method: 'GET', path: `/governance/rules/${enc(code)}` }, options);
  }

  /** `DELETE /governance/rules/{code}`. */
  deleteCustomRule(code: string, options?: CallOptions) {
    return this.call<'deleteCustomRule'>({ method: 'DELETE', path: `/governance/rules/${enc(code)}` }, options);
  }

  /** `POST /waivers`: waive one policy on one scenario until `expires_at` (docs/governance.md). */
  createWaiver(body: RequestBody<'createWaiver'>, options?: CallOptions) {
    return this.call<'createWaiver'>({ method: 'POST', path: '/waivers', body }, options);
  }

  /** `GET /waivers?scenario_id=&limit=&after=`: newest first, paged by `next_after`. */
  listWaivers(query: { scenario_id?: string; limit?: number; after?: string } = {}, options?: CallOptions) {
    return this.call<'listWaivers'>({ method: 'GET', path: `/waivers${queryString(query)}` }, options);
  }

  /** `GET /waivers/{id}` with its audit trail. */
  getWaiver(waiverId: string, options?: CallOptions) {
    return this.call<'getWaiver'>({ method: 'GET', path: `/waivers/${enc(waiverId)}` }, options);
  }

  /** `DELETE /waivers/{id}`: revoke (kept for audit). */
  revokeWaiver(waiverId: string, options?: CallOptions) {
    return this.call<'revokeWaiver'>({ method: 'DELETE', path: `/waivers/${enc(waiverId)}` }, options);
  }

  /** `POST /webhooks`: register an endpoint; the answer carries its `secret` once (for `verifyWebhook`). */
  createWebhook(body: RequestBody<'createWebhook'>, options?: CallOptions) {
    return this.call<'createWebhook'>({ method: 'POST', path: '/webhooks', body }, options);
  }

  /** `GET /webhooks`. */
  listWebhooks(options?: CallOptions) {
    return this.call<'listWebhooks'>({ method: 'GET', path: '/webhooks' }, options);
  }

  /** `GET /webhooks/{id}`. */
  getWebhook(webhookId: string, options?: CallOptions) {
    return this.call<'getWebhook'>({ method: 'GET', path: `/webhooks/${enc(webhookId)}` }, options);
  }

  /** `DELETE /webhooks/{id}` (pending deliveries are dropped). */
  deleteWebhook(webhookId: string, options?: CallOptions) {
    return this.call<'deleteWebhook'>({ method: 'DELETE', path: `/webhooks/${enc(webhookId)}` }, options);
  }

  /** `GET /webhooks/{id}/deliveries`: the newest 100 deliveries with their attempts. */
  listDeliveries(webhookId: string, options?: CallOptions) {
    return this.call<'listDeliveries'>({ method: 'GET', path: `/webhooks/${enc(webhookId)}/deliveries` }, options);
  }

  /** `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver`: queue a delivery again (202). */
  redeliver(webhookId: string, deliveryId: string, options?: CallOptions) {
    const path = `/webhooks/${enc(webhookId)}/deliveries/${enc(deliveryId)}/redeliver`;
    return this.call<'redeliver'>({ method: 'POST', path }, options);
  }

  /** `GET /openapi.json`: the OpenAPI 3.1 document the service serves (no envelope). */
  async getOpenApi(options?: CallOptions): Promise<Record<string, unknown>> {
    const res = await send<Record<string, unknown>>(this.settings, { method: 'GET', path: '/openapi.json' }, options);
    return res.body;
  }

  /**
   * Polls `GET /evaluations/{id}` until `complete` or `error` with the spec's guidance (§8 rule 4: every 2 s;
   * 2, 3, 5, 8 s for batches of 5 or more). The first poll is immediate. Each poll is a call under the retry matrix.
   * @returns the terminal status view (`status` is `complete` or `error`: check it)
   * @throws GovernanceTimeoutError when no terminal status came within `timeoutMs`; GovernanceApiError from a poll
   */
  async waitForEvaluation(evaluation: EvaluationRef, options: WaitOptions = {}): Promise<DataOf<'getEvaluation'>> {
    const id = typeof evaluation === 'string' ? evaluation : evaluation.evaluation_id;
    let total = typeof evaluation === 'string' ? undefined : evaluation.total_scenarios;
    return this.pollUntil(options, async (signal) => {
      const { data } = await this.getEvaluation(id, { signal });
      total = data.total_scenarios;
      return { done: TERMINAL_STATUSES.has(data.status), value: data, total };
    });
  }

  /**
   * The results of a stored batch, by redeeming its single-use result token at `POST /results/fetch` (spec §4):
   * while the evaluation is not complete the token is not consumed, so this polls it with the same guidance
   * as `waitForEvaluation`. Ephemeral (`blueprints`) batches have no token: read `waitForEvaluation`'s result.
   * @returns `{ status: 'complete', scenarios[] }`, or `{ status: 'error', ... }` for a failed batch
   * @throws TypeError without a result token; GovernanceApiError 401 when the token was already used or expired
   *   (then read `getEvaluation` and `getScenarioResults`, spec §7)
   */
  async results(
    submitted: SubmittedBatch,
    options: WaitOptions = {},
  ): Promise<Exclude<ResultsFetch, { status: 'processing' }>> {
    const token = submitted.result_token;
    if (token === undefined || token === null || token === '')
      throw new TypeError(`evaluation ${submitted.evaluation_id} has no result token (an ephemeral batch)`);
    return this.pollUntil(options, async (signal) => {
      const { data } = await this.fetchResults(token, { signal });
      return data.status === 'processing'
        ? { done: false, value: undefined, total: submitted.total_scenarios }
        : { done: true, value: data, total: submitted.total_scenarios };
    });
  }

  /** Calls `step` until it is done, waiting per the polling guidance; bounded by `options.timeoutMs`. */
  private async pollUntil<V>(
    options: WaitOptions,
    step: (signal: AbortSignal) => Promise<{ done: boolean; value: V | undefined; total: number | undefined }>,
  ): Promise<V> {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    for (let poll = 1; ; poll++) {
      try {
        const { done, value, total } = await step(signal);
        if (done) return value as V;
        await this.settings.sleep(pollDelay(poll, total, options.intervalsMs), signal);
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.aborted) throw new GovernanceTimeoutError(timeoutMs, poll, { cause: err });
        throw err;
      }
    }
  }

  /** One call of operation `Op`, resolved to its envelope's `data`. */
  private async call<Op extends OperationId>(spec: RequestSpec, options?: CallOptions): Promise<ApiResult<DataOf<Op>>> {
    const res = await send<{ data: DataOf<Op>; meta: Meta }>(this.settings, spec, options);
    if (typeof res.body !== 'object' || res.body === null)
      throw new GovernanceApiError(res.status, res.body, res.headers, undefined, res.attempts);
    return {
      data: res.body.data,
      meta: res.body.meta,
      status: res.status,
      headers: res.headers,
      requestId: res.requestId,
      attempts: res.attempts,
    };
  }
}

/** One path segment, percent-encoded. */
function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** `?a=1&b=2` of the defined values, or `''`. */
function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}
