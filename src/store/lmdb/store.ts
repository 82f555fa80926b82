/** @module store/lmdb/store: the LMDB backend, the default: every repository over one environment in DATA_DIR. */
import { join } from 'node:path';
import type { Store, StoreStats } from '../store.js';
import type { RateLeases } from '../rate-limits/repository.js';
import { restrictToOwner } from '../data-dir.js';
import { LmdbTables } from './tables.js';
import { LmdbAudit } from '../audit/lmdb.js';
import { LmdbSignInThrottle } from '../sign-in/lmdb.js';
import { LmdbConsoleAccounts } from '../console-accounts/lmdb.js';
import { LmdbEvaluations } from '../evaluations/lmdb.js';
import { LmdbGovernance } from '../governance/lmdb.js';
import { LmdbFleet } from '../fleet/lmdb.js';
import { LmdbOrganizations } from '../organizations/lmdb.js';
import { LmdbRateLeases } from '../rate-limits/lmdb.js';
import { LmdbReplay } from '../replay/lmdb.js';
import { LmdbIdempotency } from '../idempotency/lmdb.js';
import { LmdbResults } from '../results/lmdb.js';
import { LmdbScenarios } from '../scenarios/lmdb.js';
import { LmdbWebhooks } from '../webhooks/lmdb.js';
import { migrate } from './migrate.js';

/** Options of the LMDB backend. */
export interface LmdbStoreOptions {
  /** Map size in bytes (default DEFAULT_MAP_SIZE, 8 GiB; the file grows lazily up to it). */
  readonly mapSize?: number;
  /** Epoch ms clock (rollup `updated_at`); default Date.now. */
  readonly now?: () => number;
}

/**
 * The embedded store: `<dataDir>/gov.mdb` (every repository; shared safely by the server, its
 * workers and the admin CLI, as LMDB serialises writers across processes) and the volatile
 * rate-limit leases in `<dataDir>/rate.mdb`, opened on first use (so the admin CLI never opens it).
 * Durability: writes resolve on commit; methods that acknowledge something durable await the flush
 * themselves (PITFALLS 18), and `flushed()` covers the rest.
 */
export class LmdbStore implements Store {
  readonly backend = 'lmdb';

  /** An embedded store is never out of reach: a failure of it is a fault (500). */
  isUnavailable(): boolean {
    return false;
  }
  /** The tables: for the LMDB repositories and the LMDB backend's own tests only. */
  readonly tables: LmdbTables;
  readonly organizations: LmdbOrganizations;
  readonly scenarios: LmdbScenarios;
  readonly evaluations: LmdbEvaluations;
  readonly results: LmdbResults;
  readonly webhooks: LmdbWebhooks;
  readonly replay: LmdbReplay;
  readonly idempotency: LmdbIdempotency;
  readonly consoleAccounts: LmdbConsoleAccounts;
  readonly governance: LmdbGovernance;
  readonly signInThrottle: LmdbSignInThrottle;
  readonly audit: LmdbAudit;
  readonly fleet: LmdbFleet;
  private leases: LmdbRateLeases | null = null;

  /** @throws DataDirPermissionError when group or others can access `dataDir` (created 0700 when missing). */
  constructor(
    readonly dataDir: string,
    options: LmdbStoreOptions = {},
  ) {
    const now = options.now ?? Date.now;
    this.tables = new LmdbTables(dataDir, options.mapSize === undefined ? {} : { mapSize: options.mapSize });
    migrate(this.tables);
    this.organizations = new LmdbOrganizations(this.tables);
    this.scenarios = new LmdbScenarios(this.tables);
    this.evaluations = new LmdbEvaluations(this.tables, () => new Date(now()).toISOString());
    this.results = new LmdbResults(this.tables);
    this.webhooks = new LmdbWebhooks(this.tables);
    this.replay = new LmdbReplay(this.tables);
    this.idempotency = new LmdbIdempotency(this.tables);
    this.consoleAccounts = new LmdbConsoleAccounts(this.tables);
    this.governance = new LmdbGovernance(this.tables);
    this.signInThrottle = new LmdbSignInThrottle(this.tables);
    this.audit = new LmdbAudit(this.tables);
    this.fleet = new LmdbFleet(this.tables);
  }

  get rateLimits(): RateLeases {
    if (this.leases === null) {
      const path = join(this.dataDir, 'rate.mdb');
      this.leases = new LmdbRateLeases(path);
      restrictToOwner([path, `${path}-lock`]);
    }
    return this.leases;
  }

  flushed(): Promise<void> {
    return this.tables.flushed();
  }

  probe(): void {
    this.tables.meta.get('readiness-probe'); // throws once the environment is closed
  }

  stats(): StoreStats {
    const t = this.tables;
    const env = t.root.getStats() as { mapSize: number; lastPageNumber: number; pageSize: number };
    const count = (db: { getStats(): unknown }) => (db.getStats() as { entryCount: number }).entryCount;
    return {
      capacityBytes: env.mapSize,
      usedBytes: (env.lastPageNumber + 1) * env.pageSize, // pages are numbered from 0
      records: {
        scenarios: count(t.scenarios),
        evaluations: count(t.evaluations),
        results: count(t.results),
        keys: count(t.keys),
        webhooks: count(t.webhooks),
        deliveries: count(t.deliveries),
        waivers: count(t.waivers),
        custom_rules: count(t.customRules),
      },
      outbox: count(t.outbox),
    };
  }

  async close(): Promise<void> {
    await this.tables.flushed();
    await this.leases?.close();
    await this.tables.close();
  }
}
