/**
 * @module store/governance/repository: the governance aggregate of issue 17: an organization's
 * versioned policy settings, its custom rules (with revisions, so an evaluation can be re-run with
 * the rules it was pinned to), and its waivers with their audit log and the due index that drives
 * the `waiver.expiring` notice and the re-evaluation at expiry.
 */
import type {
  CustomRuleRecord,
  GovernanceSettingsBody,
  GovernanceSettingsRecord,
  WaiverAuditEntry,
  WaiverRecord,
} from '../../model/records.js';
import type { Awaitable } from '../awaitable.js';

/** Result of `putSettings`: the stored version, or the version that is current when `expectedVersion` did not match. */
export type PutSettingsResult =
  | { readonly ok: true; readonly record: GovernanceSettingsRecord }
  | { readonly ok: false; readonly currentVersion: number };

/** Result of `createRule`. */
export type CreateRuleResult =
  { readonly ok: true; readonly record: CustomRuleRecord } | { readonly ok: false; readonly reason: 'limit' };

/** Which due index: the 7-day notice ahead of expiry, or the expiry itself. */
export type WaiverDueKind = 'notice' | 'expiry';

/** A waiver whose notice or expiry is due (from the global due index). */
export interface DueWaiver {
  readonly orgId: string;
  readonly waiverId: string;
  /** Epoch ms the entry became due. */
  readonly dueAtMs: number;
}

/** Filters of `listWaivers`. */
export interface WaiverQuery {
  readonly scenarioId?: string;
  /** At most this many (newest first). */
  readonly limit: number;
  /** Return waivers created strictly before this waiver id's position (cursor = last id of the previous page). */
  readonly after?: string;
}

/** An organization's governance counters, read together (one lookup): what an evaluation pins and whether it must read waivers. */
export interface GovernanceCounters {
  /** The current settings version (0: never set). */
  readonly settingsVersion: number;
  /** The custom rules revision (0: none ever). */
  readonly rulesRevision: number;
  /** Waivers ever created (0: none, so no scenario has one to read). */
  readonly waiversCreated: number;
}

/** Settings, custom rules and waivers of organizations. Writes resolve once durable; reads see every write that resolved. */
export interface GovernanceRepository {
  /** The organization's counters (one lookup on either backend: the hot path of every submission and chunk). */
  counters(orgId: string): Awaitable<GovernanceCounters>;
  /** The current settings, or undefined when never set (defaults, version 0). */
  getSettings(orgId: string): Awaitable<GovernanceSettingsRecord | undefined>;
  /** One stored version (kept forever: evaluations are pinned to versions), or undefined. */
  settingsAt(orgId: string, version: number): Awaitable<GovernanceSettingsRecord | undefined>;
  /**
   * Stores version current+1, only if the current version is `expectedVersion` (0 when never set;
   * null = unconditional). Atomic across processes and nodes: of two writers expecting the same
   * version, one wins and the other gets `{ ok: false, currentVersion }`.
   */
  putSettings(
    orgId: string,
    expectedVersion: number | null,
    settings: GovernanceSettingsBody,
    at: string,
    by: string,
  ): Promise<PutSettingsResult>;

  /** The organization's rules revision: 0 before any rule was created, +1 per create and per delete. */
  rulesRevision(orgId: string): Awaitable<number>;
  /**
   * Assigns the next code `ORG-<n>` (n never reused, even after a delete) and the next revision, and
   * stores the rule, unless the organization has `maxActive` rules in force already (atomic).
   */
  createRule(
    orgId: string,
    rule: Readonly<Record<string, unknown>>,
    at: string,
    by: string,
    maxActive: number,
  ): Promise<CreateRuleResult>;
  /** One rule by code (also a deleted one), or undefined. */
  getRule(orgId: string, code: string): Awaitable<CustomRuleRecord | undefined>;
  /** Rules in force now, by code number ascending. */
  listRules(orgId: string): Awaitable<CustomRuleRecord[]>;
  /** Rules in force at `revision`: created at or before it and not deleted at or before it. */
  rulesAt(orgId: string, revision: number): Awaitable<CustomRuleRecord[]>;
  /** Marks a rule deleted at the next revision (kept for pinned evaluations). @returns the record, or undefined when unknown or already deleted. */
  deleteRule(orgId: string, code: string, at: string, by: string): Promise<CustomRuleRecord | undefined>;

  /**
   * Stores a new waiver (its audit log holds the `created` entry), indexes it by scenario and in the
   * due indexes (notice at `expires_at` − `noticeMs`, expiry at `expires_at`), unless the
   * organization has `maxActive` unrevoked, unexpired waivers at `nowMs` (atomic). @returns false at the limit.
   */
  createWaiver(record: WaiverRecord, noticeMs: number, maxActive: number, nowMs: number): Promise<boolean>;
  getWaiver(orgId: string, waiverId: string): Awaitable<WaiverRecord | undefined>;
  /** An organization's waivers (all states), newest first. */
  listWaivers(orgId: string, query: WaiverQuery): Awaitable<WaiverRecord[]>;
  /** Unrevoked waivers of one scenario (expired ones included: the caller compares `expires_at`). */
  scenarioWaivers(orgId: string, scenarioId: string): Awaitable<WaiverRecord[]>;
  /**
   * Revokes a waiver: status `revoked`, `revoked_at`, an audit entry, out of the due indexes.
   * @returns the new record; undefined when unknown; the record unchanged when already revoked.
   */
  revokeWaiver(orgId: string, waiverId: string, entry: WaiverAuditEntry): Promise<WaiverRecord | undefined>;
  /** Up to `limit` entries of the `kind` due index due at or before `nowMs`, oldest first (all organizations). */
  dueWaivers(kind: WaiverDueKind, nowMs: number, limit: number): Awaitable<DueWaiver[]>;
  /**
   * Takes a due entry out of the `kind` index and appends `entry` to the waiver's audit log, only if
   * the entry is still there: of N concurrent claims (any process or node) exactly one gets the
   * record, the others undefined. A claim of a revoked waiver removes the entry and returns undefined.
   */
  claimDue(
    kind: WaiverDueKind,
    orgId: string,
    waiverId: string,
    entry: WaiverAuditEntry,
  ): Promise<WaiverRecord | undefined>;
}
