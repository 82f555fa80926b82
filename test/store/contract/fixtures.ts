/**
 * @module test/store/contract/fixtures: records and ids shared by the store contract suites. Exports
 * only (node's test runner executes every file under dist/test/).
 */
import { pack } from 'msgpackr';
import type { Store } from '../../../src/store/store.js';
import type {
  DeliveryRecord,
  EvaluationRecord,
  KeyRecord,
  RemediationMap,
  RollupContribution,
  ScenarioSummary,
  WebhookRecord,
} from '../../../src/model/records.js';
import type { ScenarioResultWrite } from '../../../src/store/evaluations/repository.js';
import { ALL_PERMISSIONS } from '../../../src/model/records.js';

/** A fixed start of time for every suite: 2026-11-22 10:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 10, 0);
/** ISO time `ms` milliseconds after T0. */
export const iso = (ms = 0): string => new Date(T0 + ms).toISOString();

/**
 * Ids chosen to break key layouts: ids that are prefixes of each other, ids that make joined keys
 * of 64+ UTF-16 units (lmdb-js stores those in another byte form: src/store/lmdb/ranges.ts), and
 * non-ASCII ones (2-, 3- and 4-byte UTF-8).
 */
export const AWKWARD_IDS: readonly string[] = [
  'a',
  'ab',
  'a-b',
  'b',
  'L'.repeat(70),
  `${'x'.repeat(60)}-é`,
  'é中😀',
  'zz',
];
/** Organization ids that are prefixes of each other, and one of 64+ units. */
export const ORG = 'org_1';
export const ORG_PREFIXED = 'org_10';
export const ORG_LONG = `org_${'o'.repeat(66)}`;

/** Code point order (= UTF-8 byte order), the order "by id" means. */
export const byCodePoint = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** A key of `orgId` created `ms` after T0. */
export function keyRecord(keyId: string, orgId: string, ms = 0): KeyRecord {
  return {
    key_id: keyId,
    org_id: orgId,
    name: `key ${keyId}`,
    hash: `hash-${keyId}`.padEnd(64, '0'),
    display_prefix: 'gov_live_1a2b',
    permissions: ALL_PERMISSIONS,
    allow_ips: [],
    expires_at: null,
    revoked_at: null,
    per_minute: 60,
    per_hour: 1000,
    created_at: iso(ms),
    rotated_from: null,
  };
}

/** Imports a scenario (a new version of it) with a small blueprint. */
export function saveScenario(
  store: Store,
  orgId: string,
  scenarioId: string,
  blueprintJson = `{"name":"${scenarioId}","flow":[]}`,
  ms = 0,
) {
  return store.scenarios.save({
    orgId,
    scenarioId,
    name: `scenario ${scenarioId}`,
    blueprintJson,
    moduleCount: 2,
    nowIso: iso(ms),
  });
}

/** A pending evaluation of `orgId` over stored scenarios (or ephemeral, with `expiresAt`). */
export function evaluationRecord(
  evaluationId: string,
  orgId: string,
  scenarioIds: readonly string[],
  options: { versions?: readonly number[]; expiresAt?: number | null; ms?: number } = {},
): EvaluationRecord {
  const expiresAt = options.expiresAt ?? null;
  return {
    evaluation_id: evaluationId,
    org_id: orgId,
    kind: expiresAt === null ? 'stored' : 'ephemeral',
    status: 'pending',
    scenario_ids: scenarioIds,
    versions: options.versions ?? scenarioIds.map(() => 1),
    total_scenarios: scenarioIds.length,
    completed: 0,
    scenarios: scenarioIds.map(() => null),
    error: null,
    created_at: iso(options.ms),
    updated_at: iso(options.ms),
    completed_at: null,
    expires_at: expiresAt,
    key_id: 'key_1',
  };
}

/** The summary of scenario `index` of `record` with `score`. */
export function summary(record: EvaluationRecord, index: number, score: number): ScenarioSummary {
  const id = record.scenario_ids[index] ?? `blueprint-${index}`;
  return {
    id,
    name: `scenario ${id}`,
    score,
    violations: 1,
    critical: 0,
    compliance_gaps: ['SOC 2 CC6.1'],
    module_violations: [],
  };
}

/** `record` in `status`, with the summaries of `done` indexes filled in (complete and error records are terminal). */
export function advance(
  record: EvaluationRecord,
  status: EvaluationRecord['status'],
  done: readonly number[] = [],
  ms = 1_000,
): EvaluationRecord {
  const scenarios = record.scenarios.map((s, i) => (done.includes(i) ? summary(record, i, 80) : s));
  const terminal = status === 'complete' || status === 'error';
  return {
    ...record,
    status,
    scenarios,
    completed: scenarios.filter((s) => s !== null).length,
    updated_at: iso(ms),
    completed_at: terminal ? iso(ms) : null,
    error: status === 'error' ? 'evaluation failed: storage' : null,
  };
}

/** A contribution with `score` and the given findings per policy code and gaps. */
export function contribution(
  score: number,
  policies: Readonly<Record<string, number>> = {},
  gaps: readonly string[] = [],
): RollupContribution {
  const violations = Object.values(policies).reduce((a, b) => a + b, 0);
  return { score, violations, critical: policies['SEC-1'] ?? 0, policies, gaps };
}

/** Results JSON of a scenario as the worker renders it (distinct per evaluation, index and score). */
export const resultsJson = (evaluationId: string, index: number, score: number): string =>
  JSON.stringify({ evaluation_id: evaluationId, index, score, note: 'café ✓' });

/** The stored results of scenario `index` evaluated at `evaluatedAt`. */
export function resultWrite(
  evaluationId: string,
  index: number,
  c: RollupContribution,
  evaluatedAt: string,
  remediation: RemediationMap = { 'SEC-1': '{"steps":["rotate"]}' },
): ScenarioResultWrite {
  return {
    index,
    results: Buffer.from(resultsJson(evaluationId, index, c.score), 'utf8'),
    remediation: pack(remediation),
    contribution: c,
    evaluatedAt,
  };
}

/** An active endpoint of `orgId`. */
export function webhookRecord(webhookId: string, orgId: string): WebhookRecord {
  return {
    webhook_id: webhookId,
    org_id: orgId,
    url: `https://hooks.example.com/${webhookId}`,
    events: ['evaluation.complete'],
    description: null,
    status: 'active',
    disabled_reason: null,
    created_at: iso(),
  };
}

/** A delivery id that sorts by creation time, as the dispatcher makes them (`msg_<ms hex><random hex>`). */
export const deliveryId = (ms: number, salt = 0): string =>
  `msg_${(T0 + ms).toString(16).padStart(12, '0')}${salt.toString(16).padStart(8, '0')}`;

/** A pending delivery of `record`'s completion event to `endpoint`, created `ms` after T0. */
export function deliveryRecord(endpoint: WebhookRecord, evaluationId: string, ms: number): DeliveryRecord {
  return {
    delivery_id: deliveryId(ms),
    webhook_id: endpoint.webhook_id,
    org_id: endpoint.org_id,
    event_type: 'evaluation.complete',
    evaluation_id: evaluationId,
    payload: JSON.stringify({ type: 'evaluation.complete', data: { evaluation_id: evaluationId } }),
    status: 'pending',
    attempts: [],
    next_attempt_at: T0 + ms,
    created_at: iso(ms),
  };
}

/** A copy of bytes that may be a view of the backend's shared read buffer, or undefined. */
export const copied = (bytes: Uint8Array | undefined): Buffer | undefined =>
  bytes === undefined ? undefined : Buffer.from(bytes);

/** Rollup without its `updated_at` (rollup = rebuild compares the rest). */
export function withoutTime<T extends { updated_at: string }>(r: T): Omit<T, 'updated_at'> {
  const { updated_at: _, ...rest } = r;
  return rest;
}
