/**
 * @module store/lmdb/tables: the LMDB environment and its named databases. Only the LMDB repositories
 * (store/lmdb/*) read these tables; everything else calls the repositories.
 */
import { join } from 'node:path';
import { open, type Database, type DatabaseOptions, type RootDatabase } from 'lmdb';
import { prepareDataDir, restrictToOwner } from '../data-dir.js';
import type {
  CustomRuleRecord,
  DeliveryRecord,
  EvaluationRecord,
  GovernanceSettingsRecord,
  KeyRecord,
  OrgRecord,
  ResultRecord,
  RollupRecord,
  ScenarioRecord,
  SessionRecord,
  UserRecord,
  WaiverRecord,
  WebhookRecord,
} from '../../model/records.js';
import type { AuditEntry } from '../audit/repository.js';
import type { HistoryEntry } from '../fleet/repository.js';

/**
 * One Idempotency-Key record (store/idempotency/lmdb): `f` request fingerprint (hex SHA-256), `e`
 * expiry (epoch ms: of the `running` claim, then of the stored response), `k` the claim's token, `r`
 * the stored response (status, headers, body bytes) once completed; absent while running.
 */
export interface IdempotencyRecord {
  readonly f: string;
  readonly e: number;
  readonly k: string;
  readonly r?: { readonly s: number; readonly h: readonly (readonly [string, string])[]; readonly b: Uint8Array };
}

/**
 * One sign-in throttle key's counters (store/sign-in/lmdb): `c` failures settled in the window, `f`
 * of them forgiven by a success, `p` attempts reserved and not yet settled, `s` window start and `l`
 * locked until (epoch ms, 0 = not locked), `w` the window's id. Records written before issue 31 have
 * only `c`, `s` and `l` (absent `f` and `p` are 0; a missing `w` is given at the next reservation).
 */
export interface SignInThrottleRecord {
  c: number;
  f?: number;
  p?: number;
  s: number;
  l: number;
  w?: string;
}

/** File name of the environment in DATA_DIR (lmdb-js's default `noSubdir` layout: the lock file is `<name>-lock`). */
export const ENV_FILE = 'gov.mdb';

/** Map size of the environment in bytes (default 8 GiB; LMDB grows the file lazily up to it). */
export const DEFAULT_MAP_SIZE = 8 * 1024 ** 3;

/**
 * The tables of the embedded store: one LMDB environment at `<dataDir>/gov.mdb`, shared safely by the
 * server, its workers and the admin CLI (LMDB serialises writers across processes). Keys use U+0000 to join parts (`org\0scenario`), which no id may
 * contain. Scan them with store/ranges (`prefixRange`, `keysBelow`), never with hand-made bounds:
 * lmdb-js stores keys of 64+ UTF-16 units in another byte form than shorter ones, so
 * `{ start: k(org, ''), end: k(org, '\uffff') }` misses the long ones.
 * Durability: async writes resolve on commit; await `flushed()` before acknowledging a client (PITFALLS 18).
 */
export class LmdbTables {
  readonly root: RootDatabase;
  readonly orgs: Database<OrgRecord, string>;
  readonly keys: Database<KeyRecord, string>;
  /** Key id → when the key was last used (epoch ms; issue 18), kept apart so that recording use never rewrites the key record. */
  readonly keyLastUsed: Database<number, string>;
  /** Keyed hash of an API key → key id. */
  readonly keyHashes: Database<string, string>;
  /** `org\0key_id` → '' (lists an organization's keys without scanning every key). */
  readonly orgKeys: Database<string, string>;
  /** `org\0scenario` → scenario metadata. */
  readonly scenarios: Database<ScenarioRecord, string>;
  /** `org\0scenario\0version` → raw blueprint JSON bytes as imported (never msgpack-decoded). */
  readonly blueprints: Database<Buffer, string>;
  /** `org\0scenario` → latest results (metadata, remediation, rollup contribution). */
  readonly results: Database<ResultRecord, string>;
  /**
   * `org\0scenario` → the `evaluation-results` key (`evaluation\0index`) of the scenario's latest
   * results: GET /scenarios/{id}/results follows it, so results are stored once, not once per view.
   */
  readonly latestResults: Database<string, string>;
  readonly evaluations: Database<EvaluationRecord, string>;
  /** Pre-rendered status views: id → `<org>\n<expires_at ms or "">\n<data JSON>` (written with every record; polls never decode msgpack). */
  readonly evaluationViews: Database<Buffer, string>;
  /** `evaluation\0index` → pre-rendered scenario results JSON (UTF-8 bytes) of that evaluation. */
  readonly evaluationResults: Database<Uint8Array, string>;
  /** Consumed result-token ids (jti) → consumption time; written with ifNoExists (single use). */
  readonly consumedTokens: Database<{ at: number; evaluation_id: string }, string>;
  /** Accepted non-GET signatures (replay refusal): `<t>\0<signature hex>` → t (unix s); see store/lmdb/replay. */
  readonly signatures: Database<number, string>;
  /** Idempotency-Key records (issue 19): `<key id>\0<key>` → IdempotencyRecord; see store/idempotency/lmdb. */
  readonly idempotency: Database<IdempotencyRecord, string>;
  /** Idempotency records by expiry: `<expires ms, 15 digits>\0<key id>\0<key>` → '' (the sweep reads only expired entries). */
  readonly idempotencyExpiry: Database<string, string>;
  /** Watermark → `{ key_id, org_id, day }` (leak tracing, spec §1 "Watermark"). */
  readonly watermarks: Database<{ key_id: string; org_id: string; day: string }, string>;
  /** Ephemeral evaluations by expiry: `<expires_at ms, 15 digits>\0id` → '' (the purge reads only expired entries). */
  readonly expirations: Database<string, string>;
  /**
   * Stored evaluations by the time they became terminal (retention): `<retired at ms, 15 digits>\0id`
   * → '' (store/evaluations/retirement; the retention purge reads only the retired entries). Written
   * with the terminal state; filled once for earlier data by store/lmdb/migrate.
   */
  readonly completions: Database<string, string>;
  /**
   * Evaluations not yet terminal (crash recovery index, open counts): id → status (`pending` or
   * `processing`; entries written before 2026-11-26 hold `created_at`, read as "see the record").
   */
  readonly openEvaluations: Database<string, string>;
  readonly meta: Database<unknown, string>;
  /** Organization rollups, updated in the transaction that stores each scenario result. */
  readonly rollups: Database<RollupRecord, string>;
  /** Console operator accounts, and e-mail → user id. */
  readonly users: Database<UserRecord, string>;
  readonly userEmails: Database<string, string>;
  /** Console sessions by SHA-256 of the session token. */
  readonly sessions: Database<SessionRecord, string>;
  /** Webhook endpoints: `org\0webhook_id` → endpoint. */
  readonly webhooks: Database<WebhookRecord, string>;
  /** Deliveries: `webhook_id\0delivery_id` → delivery (the log, newest ids sort last). */
  readonly deliveries: Database<DeliveryRecord, string>;
  /** The outbox: pending deliveries, `webhook_id\0delivery_id` → org id; written with the evaluation's terminal state. */
  readonly outbox: Database<string, string>;
  /**
   * Governance counters (issue 17), `org\0<name>` → integer: `settings` (current settings version),
   * `rules-rev` (rules revision), `rules-seq` (last custom rule number n of `ORG-<n>`), `rules-active`
   * (rules in force), `waivers-seq` (last waiver creation sequence number). Absent = 0.
   */
  readonly govCounters: Database<number, string>;
  /** `org\0<version, 10 digits>` → one settings version (kept forever: evaluations are pinned to versions). */
  readonly govSettings: Database<GovernanceSettingsRecord, string>;
  /** `org\0<n, 10 digits>` → custom rule `ORG-<n>` (deleted ones kept, for pinned evaluations). */
  readonly customRules: Database<CustomRuleRecord, string>;
  /** `org\0waiver` → waiver (never deleted). */
  readonly waivers: Database<WaiverRecord, string>;
  /** `org\0<creation sequence, 12 digits>` → waiver id: an organization's waivers in creation order. */
  readonly waiverOrder: Database<string, string>;
  /** `org\0waiver` → its creation sequence (12 digits; the `after` cursor of a listing). */
  readonly waiverSeqs: Database<string, string>;
  /** `org\0scenario\0<creation sequence, 12 digits>` → waiver id: a scenario's waivers in creation order. */
  readonly scenarioWaivers: Database<string, string>;
  /** `org\0<expires_at ms, 15 digits>\0waiver` → '': unrevoked waivers by expiry (the active limit; expired entries are pruned by the next creation). */
  readonly activeWaivers: Database<string, string>;
  /**
   * The fleet sort indexes (issue 18; store/fleet/keys): binary keys, the UTF-8 of `org\0<member>`
   * → empty. Binary keys have one byte form at every length, so plain ranges see them all.
   */
  readonly fleetIndex: Database<Buffer, Buffer>;
  /** Scenario history (issue 18): binary keys `org\0scenario\0<evaluated_at>\0evaluation` → HistoryEntry (newest 50 kept). */
  readonly scenarioHistory: Database<HistoryEntry, Buffer>;
  /** Evaluations completed per day (issue 18): `org\0YYYY-MM-DD` → `{ e, s }` (evaluations, their scenarios). */
  readonly evaluationDays: Database<{ e: number; s: number }, string>;
  /** The due indexes of all organizations: `<kind>\0<due ms, 15 digits>\0org\0waiver` → '' (kind `notice` or `expiry`). */
  readonly waiverDue: Database<string, string>;
  /** `<kind>\0org\0waiver` → its due ms (15 digits): finds a waiver's `waiver-due` entry to claim or drop it. */
  readonly waiverDueAt: Database<string, string>;
  /** Sign-in throttle key → its counters in the current window (store/sign-in). */
  readonly signInThrottle: Database<SignInThrottleRecord, string>;
  /** `org\0<seq, 12 digits>` → audit entry (store/audit; never deleted). */
  readonly audit: Database<AuditEntry, string>;
  /** org → the last audit sequence number of the organization (absent = 0). */
  readonly auditSeqs: Database<number, string>;

  /** @throws DataDirPermissionError when group or others can access `dataDir` (created 0700 when missing). */
  constructor(
    readonly dataDir: string,
    options: { mapSize?: number } = {},
  ) {
    prepareDataDir(dataDir);
    const path = join(dataDir, ENV_FILE);
    this.root = open({ path, mapSize: options.mapSize ?? DEFAULT_MAP_SIZE, maxDbs: 64 });
    restrictToOwner([path, `${path}-lock`]);
    this.orgs = this.root.openDB(records('orgs'));
    this.keys = this.root.openDB(records('keys'));
    this.keyHashes = this.root.openDB({ name: 'key-hashes', encoding: 'string' });
    this.keyLastUsed = this.root.openDB({ name: 'key-last-used' });
    this.orgKeys = this.root.openDB({ name: 'org-keys', encoding: 'string' });
    this.scenarios = this.root.openDB(records('scenarios'));
    this.blueprints = this.root.openDB({ name: 'blueprints', encoding: 'binary' });
    this.results = this.root.openDB(records('results', true));
    this.latestResults = this.root.openDB({ name: 'latest-results', encoding: 'string' });
    this.evaluations = this.root.openDB(records('evaluations'));
    this.evaluationViews = this.root.openDB({ name: 'evaluation-views', encoding: 'binary' });
    this.evaluationResults = this.root.openDB({ name: 'evaluation-results', encoding: 'binary' });
    this.consumedTokens = this.root.openDB(records('consumed-tokens'));
    this.signatures = this.root.openDB({ name: 'signatures' });
    this.watermarks = this.root.openDB(records('watermarks'));
    this.idempotency = this.root.openDB({ name: 'idempotency' });
    this.idempotencyExpiry = this.root.openDB({ name: 'idempotency-expiry', encoding: 'string' });
    this.openEvaluations = this.root.openDB({ name: 'open-evaluations', encoding: 'string' });
    this.expirations = this.root.openDB({ name: 'expirations', encoding: 'string' });
    this.completions = this.root.openDB({ name: 'completions', encoding: 'string' });
    this.meta = this.root.openDB(records('meta'));
    this.rollups = this.root.openDB(records('rollups', true));
    this.users = this.root.openDB(records('users'));
    this.userEmails = this.root.openDB({ name: 'user-emails', encoding: 'string' });
    this.sessions = this.root.openDB(records('sessions'));
    this.webhooks = this.root.openDB(records('webhooks'));
    this.deliveries = this.root.openDB(records('deliveries'));
    this.outbox = this.root.openDB({ name: 'outbox', encoding: 'string' });
    this.govCounters = this.root.openDB({ name: 'gov-counters' });
    this.govSettings = this.root.openDB(records('gov-settings', true));
    this.customRules = this.root.openDB(records('custom-rules', true));
    this.waivers = this.root.openDB(records('waivers'));
    this.waiverOrder = this.root.openDB({ name: 'waiver-order', encoding: 'string' });
    this.waiverSeqs = this.root.openDB({ name: 'waiver-seqs', encoding: 'string' });
    this.scenarioWaivers = this.root.openDB({ name: 'scenario-waivers', encoding: 'string' });
    this.activeWaivers = this.root.openDB({ name: 'active-waivers', encoding: 'string' });
    this.waiverDue = this.root.openDB({ name: 'waiver-due', encoding: 'string' });
    this.waiverDueAt = this.root.openDB({ name: 'waiver-due-at', encoding: 'string' });
    this.signInThrottle = this.root.openDB({ name: 'sign-in-throttle' });
    this.audit = this.root.openDB(records('audit'));
    this.auditSeqs = this.root.openDB({ name: 'audit-seqs' });
    this.fleetIndex = this.root.openDB({ name: 'fleet-index', keyEncoding: 'binary', encoding: 'binary' });
    this.scenarioHistory = this.root.openDB({ name: 'scenario-history', keyEncoding: 'binary' });
    this.evaluationDays = this.root.openDB({ name: 'evaluation-days' });
  }

  /** Resolves when every write committed so far is durable on disk. */
  flushed(): Promise<void> {
    return this.root.flushed.then(() => undefined);
  }

  /** Flushes and closes the environment. */
  async close(): Promise<void> {
    await this.flushed();
    await this.root.close();
  }
}

/**
 * The value bytes of `key` as a view of LMDB's shared read buffer (no copy), or undefined. Valid
 * until the next read of the store: copy or send it first. (lmdb's fast read returns its whole
 * global buffer with a patched `length`; the view trims it, so typed-array operations such as
 * `Buffer.concat` see the value's real size.)
 */
export function readFast(db: Database<unknown, string>, key: string): Buffer | undefined {
  const bytes = db.getBinaryFast(key);
  return bytes === undefined ? undefined : bytes.subarray(0, bytes.length);
}

/**
 * msgpackr's `useRecords` test for databases that hold maps keyed by data (policy codes such as
 * `SEC-1`, gap labels such as `SOC 2 CC6.1`) beside fixed-shape records (snake_case fields): an
 * object whose first key starts with an upper-case letter is a map and is packed as a plain msgpack
 * map. As records, every new key set would take one of the 32 shared structures, and values written
 * after they ran out would carry their structures inline again.
 */
export function isRecordShaped(value: object): boolean {
  for (const key in value) return !(key.charCodeAt(0) >= 0x41 && key.charCodeAt(0) <= 0x5a);
  return true;
}

/**
 * Options of a msgpack database of records. Record structures are shared: stored once in the
 * database under `STRUCTURES` instead of inline in every value, where every read decoded them
 * again (~5% of the main thread under batch load). Values written inline before still decode.
 * With `dataMaps`, maps keyed by data are packed as plain maps and read back as objects (see
 * isRecordShaped; msgpackr's `useRecords` and `mapsAsObjects`, passed through by lmdb but absent
 * from its types).
 */
function records(name: string, dataMaps = false): DatabaseOptions & { name: string } {
  return {
    name,
    sharedStructuresKey: STRUCTURES,
    ...(dataMaps ? { useRecords: isRecordShaped, mapsAsObjects: true } : {}),
  };
}

/** Key of the shared msgpack structures in each record database (lmdb-js's conventional symbol). */
const STRUCTURES = Symbol.for('structures');

/**
 * Key of a time index (`expirations`, `completions`): epoch ms padded to 15 digits, so that keys sort
 * by time, then U+0000 and the id. `keysBelow(db, timeKey(t, ''))` reads the entries before t.
 */
export function timeKey(ms: number, id: string): string {
  return `${String(ms).padStart(15, '0')}\u0000${id}`;
}

/** Joins key parts with U+0000. Parts contain no U+0000-U+0004 (store/ranges relies on it). */
export function k(...parts: (string | number)[]): string {
  return parts.join('\u0000');
}
