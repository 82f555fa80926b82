/**
 * @module test/integration/bodies: what the integration tests read beyond `src/client/responses.ts` and
 * test/helpers/assertions: the full rollup view, the admin CLI's `--json` output (src/cli/admin.ts), and
 * accessors for the success envelope and 422 field errors.
 */
import assert from 'node:assert/strict';
import type { ClientResponse } from '../../src/client/client.js';
import type { Failure, InlineResult, Ok, Reply, Rollup, Severity } from '../../src/client/responses.js';
import { failureOf } from '../helpers/assertions.js';

export { dataOf, failureOf } from '../helpers/assertions.js';
export type {
  Delivery,
  DeliveryList,
  EvaluationCompleteEvent,
  Webhook,
  WebhookList,
} from '../../src/client/responses.js';

/** `POST /evaluate/inline` 200 (`InlineResult`, with `saved` when `save_to_workspace` was asked for). */
export type InlineSaved = InlineResult;

/** The success envelope of a reply; fails the test, with the raw body, when the reply is an error. */
export function okOf<T>(res: ClientResponse<Reply<T>>): Ok<T> {
  const body = res.body;
  assert.ok(body.ok, `expected a success body, got ${res.status}: ${res.raw}`);
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
  /** The stored keys with `hash` blanked, their `state` and `last_used_at` (ISO, null: never). */
  readonly 'keys list': {
    readonly keys: readonly {
      readonly key_id: string;
      readonly hash?: unknown;
      readonly state: string;
      readonly last_used_at: string | null;
    }[];
  };
  readonly 'keys revoke': { readonly key_id: string; readonly revoked_at: string | null };
  readonly 'keys limits': { readonly key_id: string; readonly per_minute: number; readonly per_hour: number };
  readonly 'keys allow-ips': { readonly key_id: string; readonly allow_ips: readonly string[] };
  readonly 'keys permissions': { readonly key_id: string; readonly permissions: readonly string[] };
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
  readonly 'evaluations retire': { readonly retired_before: string; readonly deleted: number };
  readonly 'rollup rebuild': RollupView;
  readonly 'watermarks show': { readonly watermark: string; readonly key_id: string; readonly org_id: string };
}

/** An admin command (`AdminOutput`'s keys), e.g. `'keys create'`. */
export type AdminCommand = keyof AdminOutput;
