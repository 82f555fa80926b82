/**
 * @module test/integration/bodies: what the integration tests read that `src/client/responses.ts` does not
 * declare: more response bodies (docs/openapi.json `components.schemas`, only the fields read here), the
 * webhook event, the admin CLI's `--json` output (src/cli/admin.ts), and accessors that narrow a reply on `ok`.
 */
import assert from 'node:assert/strict';
import type { ClientResponse } from '../../src/client/client.js';
import type {
  Failure,
  InlineResult,
  Ok,
  Reply,
  Rollup,
  ScenarioSummary,
  Severity,
} from '../../src/client/responses.js';

/** The success envelope of a reply; fails the test, with the raw body, when the reply is an error. */
export function okOf<T>(res: ClientResponse<Reply<T>>): Ok<T> {
  const body = res.body;
  assert.ok(body.ok, `expected a success body, got ${res.status}: ${res.raw}`);
  return body;
}

/** The `data` of a success reply; fails the test when the reply is an error. */
export function dataOf<T>(res: ClientResponse<Reply<T>>): T {
  return okOf(res).data;
}

/** The error body of a reply; fails the test when the reply is a success. */
export function failureOf(res: ClientResponse<Reply<unknown>>): Failure {
  const body = res.body;
  assert.ok(!body.ok, `expected an error body, got ${res.status}: ${res.raw}`);
  return body;
}

/** A field error of a 422 (`FieldError`). */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** Whether an error's `detail` is a list of field errors (`Array.isArray` alone would narrow it to `any[]`). */
function isFieldErrorList(detail: Failure['detail']): detail is readonly FieldError[] {
  return Array.isArray(detail);
}

/** The field errors of a 422 (`detail[]`); fails the test when `detail` is not a list. */
export function fieldErrors(res: ClientResponse<Reply<unknown>>): readonly FieldError[] {
  const { detail } = failureOf(res);
  assert.ok(isFieldErrorList(detail), `expected field errors in detail, got ${res.raw}`);
  return detail;
}

/** `POST /evaluate/inline` 200 (`InlineResult`), with `saved` when `save_to_workspace` was asked for. */
export type InlineSaved = InlineResult & { readonly saved?: { readonly scenario_id: string } };

/** `GET /organization/rollup` 200 (`Rollup`) in full: also `admin rollup rebuild --json`. */
export interface RollupView extends Rollup {
  readonly top_violations: readonly {
    readonly policy: string;
    readonly title: string;
    readonly severity: Severity;
    readonly count: number;
    readonly scenarios: number;
  }[];
  readonly framework_coverage: readonly {
    readonly framework: string;
    readonly controls_total: number;
    readonly controls_met: number;
    /** 0-1. */
    readonly coverage: number;
  }[];
}

/** A webhook endpoint (`Webhook`); `secret` only in the registration response. */
export interface Webhook {
  readonly webhook_id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string | null;
  readonly status: 'active' | 'disabled';
  readonly disabled_reason?: string | null;
  readonly created_at: string;
  readonly secret?: string;
}

/** `GET /webhooks` 200 (`WebhookList`). */
export interface WebhookList {
  readonly webhooks: readonly Webhook[];
}

/** One delivery of an event to an endpoint (`Delivery`). */
export interface Delivery {
  readonly delivery_id: string;
  readonly event_type: string;
  readonly evaluation_id?: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly {
    readonly at: string;
    /** Null when no HTTP answer came (network error, time-out). */
    readonly status_code: number | null;
    readonly error: string | null;
    /** In milliseconds. */
    readonly duration_ms: number;
  }[];
  readonly next_attempt_at?: string | null;
  readonly created_at?: string;
}

/** `GET /webhooks/{id}/deliveries` 200 (`DeliveryList`). */
export interface DeliveryList {
  readonly deliveries: readonly Delivery[];
}

/** The body a webhook receiver gets for `evaluation.complete` (src/actors/webhooks/dispatcher.ts). */
export interface EvaluationCompleteEvent {
  readonly type: 'evaluation.complete';
  /** ISO 8601. */
  readonly timestamp: string;
  readonly data: {
    readonly evaluation_id: string;
    readonly status: 'complete';
    readonly total_scenarios: number;
    readonly scenarios: readonly ScenarioSummary[];
  };
}

/** A key and its secrets as `admin keys create` and `admin keys rotate` print them (shown once). */
export interface AdminKeyIssued {
  readonly key_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
}

/**
 * What `admin <command> ... --json` prints, by command (src/cli/admin.ts `buildCli`): exactly one JSON
 * object. Only the commands and fields the tests use.
 */
export interface AdminOutput {
  readonly 'orgs create': { readonly org_id: string; readonly name: string };
  readonly 'orgs list': { readonly orgs: readonly { readonly org_id: string; readonly name: string }[] };
  readonly 'keys create': AdminKeyIssued;
  readonly 'keys rotate': AdminKeyIssued & { readonly rotated_from: string };
  /** The stored keys with `hash` blanked and their `state`. */
  readonly 'keys list': {
    readonly keys: readonly { readonly key_id: string; readonly hash?: unknown; readonly state: string }[];
  };
  readonly 'keys revoke': { readonly key_id: string; readonly revoked_at: string | null };
  readonly 'keys limits': { readonly key_id: string; readonly per_minute: number; readonly per_hour: number };
  readonly 'keys allow-ips': { readonly key_id: string; readonly allow_ips: readonly string[] };
  readonly 'scenarios import': {
    readonly imported: readonly {
      readonly scenario_id: string;
      readonly name: string;
      readonly version: number;
      readonly file: string;
    }[];
  };
  readonly 'scenarios list': {
    readonly scenarios: readonly {
      readonly scenario_id: string;
      readonly name: string;
      readonly version: number;
      readonly module_count: number;
    }[];
  };
  readonly 'scenarios delete': { readonly scenario_id: string; readonly deleted: true };
  /** `password` only when none was given. */
  readonly 'users create': {
    readonly user_id: string;
    readonly org_id: string;
    readonly email: string;
    readonly role: string;
    readonly password?: string;
  };
  readonly 'rollup rebuild': RollupView;
  readonly 'watermarks show': { readonly watermark: string; readonly key_id: string; readonly org_id: string };
}

/** An admin command (`AdminOutput`'s keys), e.g. `'keys create'`. */
export type AdminCommand = keyof AdminOutput;
