/**
 * @module actors/governance: the governance context of evaluations (issue 17), on the main thread.
 * A new evaluation is pinned to its organization's current settings version and custom-rules
 * revision (recorded in the evaluation and its results); each chunk of it runs with the context of
 * that pin, read from the store once per node and kept (a pinned context never changes), and with
 * the waivers of its scenarios in force at the chunk's time.
 */
import type { EvaluationRecord } from '../model/records.js';
import type { Store } from '../store/store.js';
import type { ActiveWaiver } from '../engine/waivers.js';
import type { GovernancePin } from '../api/views/scenario-results.js';
import type { ChunkScenario, GovernanceTaskContext } from './worker-protocol.js';
import { CATALOG_REVISION } from '../engine/index.js';
import { DEFAULT_GOVERNANCE } from './worker-protocol.js';

/** Pinned contexts kept per node (each a settings body and a rule list: a few KiB). */
const CACHE_SIZE = 256;

/** Governance contexts and waivers, read from the store. */
export class GovernanceContexts {
  private readonly cache = new Map<string, GovernanceTaskContext>();

  constructor(private readonly store: Store) {}

  /** The pin of a new evaluation of `orgId`: its current settings version and rules revision, and the catalog's revision. */
  async pin(orgId: string): Promise<GovernancePin> {
    const c = await this.store.governance.counters(orgId);
    return { settings_version: c.settingsVersion, rules_revision: c.rulesRevision, catalog_revision: CATALOG_REVISION };
  }

  /** The context of `pin` (an evaluation stored before issue 17 has none: the defaults). */
  async context(orgId: string, pin: GovernancePin | undefined): Promise<GovernanceTaskContext> {
    if (!pin || (pin.settings_version === 0 && pin.rules_revision === 0))
      return pin ? { ...DEFAULT_GOVERNANCE, pin } : DEFAULT_GOVERNANCE;
    const key = `${orgId}:${pin.settings_version}:${pin.rules_revision}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const [settings, rules] = await Promise.all([
      (async () =>
        pin.settings_version === 0 ? undefined : this.store.governance.settingsAt(orgId, pin.settings_version))(),
      (async () => (pin.rules_revision === 0 ? [] : this.store.governance.rulesAt(orgId, pin.rules_revision)))(),
    ]);
    const context: GovernanceTaskContext = {
      pin,
      key,
      settings: settings?.settings ?? null,
      rules: rules.map((r) => ({ code: r.code, rule: r.rule })),
    };
    this.cache.set(key, context);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return context;
  }

  /** The current context of `orgId` (inline evaluations, on-demand remediation). */
  async current(orgId: string): Promise<GovernanceTaskContext> {
    return this.context(orgId, await this.pin(orgId));
  }

  /**
   * The waivers of `scenarioId` in force at `atIso`: unrevoked, not yet expired. One read per
   * scenario (an index range on LMDB, one pipelined command on Redis).
   */
  async activeWaivers(orgId: string, scenarioId: string, atIso: string): Promise<ActiveWaiver[]> {
    const stored = await this.store.governance.scenarioWaivers(orgId, scenarioId);
    const active: ActiveWaiver[] = [];
    for (const w of stored)
      if (w.status === 'active' && w.expires_at > atIso)
        active.push({
          waiver_id: w.waiver_id,
          policy: w.policy,
          fingerprint: w.fingerprint,
          module_id: w.module_id,
          expires_at: w.expires_at,
        });
    return active;
  }

  /**
   * What a chunk of `record` needs besides its blueprints: the pinned context, and each stored
   * scenario's waivers in force at `evaluatedAt` (ephemeral blueprints have none).
   */
  async forChunk(
    record: EvaluationRecord,
    chunk: readonly ChunkScenario[],
    evaluatedAt: string,
  ): Promise<{ governance: GovernanceTaskContext; chunk: readonly ChunkScenario[] }> {
    const [governance, waivers] = await Promise.all([
      this.context(record.org_id, record.governance),
      record.kind === 'stored' ? this.chunkWaivers(record.org_id, chunk, evaluatedAt) : Promise.resolve(null),
    ]);
    if (waivers === null || waivers.every((w) => w.length === 0)) return { governance, chunk };
    return { governance, chunk: chunk.map((s, i) => (waivers[i]!.length === 0 ? s : { ...s, waivers: waivers[i]! })) };
  }

  /** Each scenario's waivers in force; none read for an organization that never created one (one counter lookup). */
  private async chunkWaivers(
    orgId: string,
    chunk: readonly ChunkScenario[],
    evaluatedAt: string,
  ): Promise<ActiveWaiver[][] | null> {
    if ((await this.store.governance.counters(orgId)).waiversCreated === 0) return null;
    return Promise.all(chunk.map((s) => this.activeWaivers(orgId, s.scenarioId, evaluatedAt)));
  }
}
