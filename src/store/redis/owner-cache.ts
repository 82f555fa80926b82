/**
 * @module store/redis/owner-cache: which organization owns an evaluation or a webhook endpoint, read
 * from a global index (`Pev-org`, `Pwebhook-org`) and remembered. The answer never changes for an
 * id (ids are random and never reused), so caching it is safe across processes, and a poll of
 * GET /evaluations/{id} costs one round trip instead of two once its owner is known.
 */
import type { Redis } from 'ioredis';

/** At most this many ids are remembered per index (oldest forgotten first; ~100 bytes each). */
export const OWNER_CACHE_SIZE = 10_000;

/** The owner look-up of one global index. */
export class OwnerCache {
  private readonly known = new Map<string, string>();

  /** @param index the hash key mapping id → org id. */
  constructor(
    private readonly redis: Redis,
    private readonly index: string,
  ) {}

  /** The org id owning `id`, or undefined when the index has none (unknown or deleted). */
  async orgOf(id: string): Promise<string | undefined> {
    const cached = this.known.get(id);
    if (cached !== undefined) return cached;
    const org = await this.redis.hget(this.index, id);
    if (org === null) return undefined;
    this.remember(id, org);
    return org;
  }

  /** Records an owner this process just wrote. */
  remember(id: string, orgId: string): void {
    if (this.known.size >= OWNER_CACHE_SIZE) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(id, orgId);
  }
}
