/**
 * @module server/auth/key-usage: when each API key was last used (issue 18, the console's "Last
 * used"), remembered in memory on the request path and written behind in batches.
 */
import type { KeyUse, OrganizationsRepository } from '../../store/organizations/repository.js';

/** Default of `KEY_USE_FLUSH_MS`, in ms: how often remembered key use is written to the store. */
export const DEFAULT_KEY_USE_FLUSH_MS = 10_000;

/** One key's use as this process saw it. Mutated in place, so that marking a known key allocates nothing. */
interface Use {
  /** Latest use, epoch ms. */
  at: number;
  /** The time last written to the store (0: none yet). */
  written: number;
}

/**
 * Key use, written behind. `mark` is the request path's only cost: one map look-up and one field
 * write (a new entry only for a key's first use since it was last idle for a whole interval); no
 * store call, no timer, no clock read. Every `flushMs` (and at shutdown: `stop`) the keys used since
 * the last write go to the store in one batched write (`recordKeyUse`, which keeps the maximum, so
 * nodes sharing a store never move a time back). The stored time therefore lags the last use by at
 * most `flushMs` plus the write. A failed write is reported and retried with the next flush; keys
 * idle for a whole interval are forgotten, so memory follows the keys in use, not every key ever seen.
 */
export class KeyUsage {
  private readonly uses = new Map<string, Use>();
  private timer: NodeJS.Timeout | null = null;
  /** The last flush: flushes run one after another, never two batches at once. */
  private tail: Promise<void> = Promise.resolve();

  /**
   * @param store where use is written.
   * @param flushMs interval between writes, in ms (`KEY_USE_FLUSH_MS`, default 10000).
   * @param onFailure called with the error of a failed write (the batch is retried with the next flush).
   */
  constructor(
    private readonly store: Pick<OrganizationsRepository, 'recordKeyUse'>,
    private readonly flushMs: number = DEFAULT_KEY_USE_FLUSH_MS,
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** Keys whose use is held in memory (used since their last write, or written in the last interval). */
  get size(): number {
    return this.uses.size;
  }

  /** Remembers that `keyId` was used at `atMs` (epoch ms). O(1); call only for keys that authenticated. */
  mark(keyId: string, atMs: number): void {
    const use = this.uses.get(keyId);
    if (use === undefined) this.uses.set(keyId, { at: atMs, written: 0 });
    else if (atMs > use.at) use.at = atMs;
  }

  /** Starts the periodic flush (its timer does not keep the process alive). Idempotent. */
  start(): void {
    if (this.timer !== null) return;
    // flush() reports its own failures and resolves; the catch keeps a future change from ending the process.
    this.timer = setInterval(() => {
      this.flush().catch(this.onFailure);
    }, this.flushMs);
    this.timer.unref();
  }

  /**
   * Writes the keys used since their last write, in one batch. Resolves once the batch committed
   * (or failed and was reported): tests and shutdown await it. Never rejects.
   */
  flush(): Promise<void> {
    const run = this.tail.then(() => this.write());
    this.tail = run;
    return run;
  }

  /** Stops the periodic flush and flushes what is left (shutdown, before the store closes). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch: KeyUse[] = [];
    const pending: Use[] = [];
    for (const [keyId, use] of this.uses) {
      if (use.at > use.written) {
        batch.push({ keyId, atMs: use.at });
        pending.push(use);
      } else this.uses.delete(keyId); // idle for a whole interval (deleting the current entry is safe in a Map loop)
    }
    if (batch.length === 0) return;
    try {
      await this.store.recordKeyUse(batch);
      batch.forEach((entry, i) => {
        const use = pending[i]!;
        if (entry.atMs > use.written) use.written = entry.atMs;
      });
    } catch (error) {
      this.onFailure(error);
    }
  }
}
