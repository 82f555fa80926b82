/**
 * @module actors/fair-queue: the pool's waiting tasks, queued per organization and served fairly
 * (issue 31: one organization's flood held another's inline evaluation for 41 s behind it).
 */
import { Lanes, type Lane } from './lanes.js';

/** One organization's waiting tasks and its place in the turn. */
interface Tenant<T> {
  readonly lanes: Lanes<T>;
  /** Its turn: the virtual time of its next start (one unit per task started). */
  turn: number;
}

/**
 * Waiting tasks of many organizations (tenants), each in its own two lanes ({@link Lanes}: FIFO per
 * lane, interactive first, a bulk task after a streak). The next task goes to the tenant running the
 * fewest tasks now, then to the one whose turn comes first: start-time fair queuing with one unit per
 * task, so tenants with waiting tasks start them in turn whatever their backlogs, and one that arrives
 * joins at the current turn (no credit for time it was idle, no penalty either). Work-conserving: a
 * tenant alone may use every worker; another tenant's task waits for at most the first worker to come
 * free (a running task is never preempted). O(tenants waiting) per dispatch; a tenant with nothing
 * waiting is forgotten once the turn has passed it.
 */
export class FairQueue<T> {
  private readonly tenants = new Map<string, Tenant<T>>();
  /** The turn of the last task started. */
  private now = 0;
  private waiting = 0;
  private waitingBulk = 0;

  /** Items waiting, all tenants and lanes. */
  get size(): number {
    return this.waiting;
  }

  /** Items waiting in bulk lanes. */
  get bulkSize(): number {
    return this.waitingBulk;
  }

  /** Tenants with a waiting item. */
  get tenantCount(): number {
    let n = 0;
    for (const t of this.tenants.values()) if (t.lanes.size > 0) n++;
    return n;
  }

  /** Queues `item` at the end of `tenant`'s `lane`. */
  push(tenant: string, lane: Lane, item: T): void {
    let t = this.tenants.get(tenant);
    if (!t) {
      t = { lanes: new Lanes<T>(), turn: this.now };
      this.tenants.set(tenant, t);
    } else if (t.lanes.size === 0) t.turn = Math.max(t.turn, this.now);
    t.lanes.push(lane, item);
    this.waiting++;
    if (lane === 'bulk') this.waitingBulk++;
  }

  /**
   * The next item to start and its tenant, or undefined when none may start. `running(tenant)` is how
   * many of the tenant's tasks run now; `allowBulk` false lets only interactive items go (the pool
   * keeps its last free worker for them).
   */
  shift(running: (tenant: string) => number, allowBulk = true): { tenant: string; item: T } | undefined {
    let chosen: [string, Tenant<T>] | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const entry of this.tenants) {
      const [name, t] = entry;
      if (t.lanes.size === 0) {
        if (t.turn <= this.now) this.tenants.delete(name); // joining again at the current turn is the same
        continue;
      }
      if (!allowBulk && t.lanes.size === t.lanes.bulkSize) continue;
      const n = running(name);
      if (n < fewest || (n === fewest && t.turn < chosen![1].turn)) {
        fewest = n;
        chosen = entry;
      }
    }
    if (chosen === undefined) return undefined;
    const [tenant, t] = chosen;
    const bulkBefore = t.lanes.bulkSize;
    const item = t.lanes.shift(allowBulk)!;
    this.waiting--;
    if (t.lanes.bulkSize < bulkBefore) this.waitingBulk--;
    this.now = Math.max(this.now, t.turn);
    t.turn++;
    return { tenant, item };
  }

  /** Removes and returns every waiting item (closing). */
  clear(): T[] {
    const all = [...this.tenants.values()].flatMap((t) => t.lanes.clear());
    this.tenants.clear();
    this.waiting = 0;
    this.waitingBulk = 0;
    return all;
  }
}
