/**
 * @module store/store: the contract of a storage backend. The service keeps its state in
 * repositories, one per aggregate, each owning its key layout and encoding; callers call methods
 * and never see tables, keys or transactions. `openStore` (store/open.ts) opens the LMDB backend,
 * the default; every backend passes the contract suites in test/store/.
 */
import type { Awaitable } from './awaitable.js';
import type { AuditRepository } from './audit/repository.js';
import type { ConsoleAccountsRepository } from './console-accounts/repository.js';
import type { EvaluationsRepository } from './evaluations/repository.js';
import type { FleetRepository } from './fleet/repository.js';
import type { GovernanceRepository } from './governance/repository.js';
import type { OrganizationsRepository } from './organizations/repository.js';
import type { RateLeases } from './rate-limits/repository.js';
import type { ReplayRepository } from './replay/repository.js';
import type { IdempotencyRepository } from './idempotency/repository.js';
import type { ResultsRepository } from './results/repository.js';
import type { ScenariosRepository } from './scenarios/repository.js';
import type { SignInThrottleRepository } from './sign-in/repository.js';
import type { WebhooksRepository } from './webhooks/repository.js';

/** Sizes for the operators' gauges (`gov_store_*`). */
export interface StoreStats {
  /** Bytes the backend may grow to, or null when unbounded. */
  readonly capacityBytes: number | null;
  readonly usedBytes: number;
  /** Stored records per kind: scenarios, evaluations, results, keys, webhooks, deliveries, waivers, custom_rules. */
  readonly records: Readonly<Record<string, number>>;
  /** Pending webhook deliveries. */
  readonly outbox: number;
}

/** A storage backend: the repositories over one shared state. */
export interface Store {
  /**
   * `lmdb`: embedded, reads are local memory-map lookups (callers may keep write-behind batches in
   * memory, as every process on the host sees the same file). `redis`: shared by nodes over the
   * network (every guarantee must be a conditional write in the store itself).
   */
  readonly backend: 'lmdb' | 'redis';
  readonly organizations: OrganizationsRepository;
  readonly scenarios: ScenariosRepository;
  readonly evaluations: EvaluationsRepository;
  readonly results: ResultsRepository;
  readonly webhooks: WebhooksRepository;
  readonly replay: ReplayRepository;
  /** Idempotency-Key records of public POSTs (issue 19). */
  readonly idempotency: IdempotencyRepository;
  /** Rate-limit budgets (spec §8), opened on first use. */
  readonly rateLimits: RateLeases;
  readonly consoleAccounts: ConsoleAccountsRepository;
  /** Governance settings, custom rules and waivers (issue 17). */
  readonly governance: GovernanceRepository;
  /** Sign-in failure counters and locks of the console (issue 18). */
  readonly signInThrottle: SignInThrottleRepository;
  /** The audit log of console and public-API changes (issue 18). */
  readonly audit: AuditRepository;
  /** The console's fleet reads: the scenario list, histories, evaluations per day (issue 18). */
  readonly fleet: FleetRepository;
  /** Resolves when every write committed so far is durable. */
  flushed(): Promise<void>;
  /** Throws when the store cannot serve reads (readiness probe; e.g. once closed). */
  probe(): Awaitable<void>;
  stats(): Awaitable<StoreStats>;
  /**
   * True when `error` (thrown by any repository method) means the backend cannot be reached right
   * now, so the request may be retried later or on another node (503 with Retry-After) rather than
   * being a fault of the service (500). Always false for an embedded backend.
   */
  isUnavailable(error: unknown): boolean;
  /** Flushes and closes. */
  close(): Promise<void>;
}
