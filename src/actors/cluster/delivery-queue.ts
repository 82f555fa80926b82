/**
 * @module actors/cluster/delivery-queue: webhook deliveries in cluster mode (issue 16: "webhook
 * deliveries as BullMQ jobs with the documented retry schedule, each event delivered by one node
 * (same `webhook-id` on retries)").
 *
 * The outbox stays the source of truth: a delivery enters it in the transaction that completes its
 * evaluation (as with one process), and a job per attempt hands it to one node. A job's id is
 * `<delivery id>-<attempts made>`, so adding it again while it waits or runs changes nothing;
 * BullMQ's lock keeps it on one node; the processor attempts only a delivery still `pending` and
 * due, and stores the attempt before adding the next one, delayed by the documented schedule
 * (actors/webhooks/delivery-actor `retryDelay`: doubling from WEBHOOK_BACKOFF_BASE_MS, full jitter,
 * capped, `Retry-After` honoured). Every node also sweeps the outbox periodically and re-adds the
 * jobs of pending deliveries, which covers a node that died between the commit and the add. A
 * delivery is thus sent at least once, and twice only when a node died between the send and its
 * record (the same `webhook-id`, which receivers deduplicate on). Unlike one process, deliveries of
 * one endpoint are not ordered (Standard Webhooks does not require it; `webhook-timestamp` orders them).
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { DeliveryRecord } from '../../model/records.js';
import type { WebhooksRepository } from '../../store/webhooks/repository.js';
import type { AttemptContext } from '../webhooks/attempt.js';
import { attemptDelivery } from '../webhooks/attempt.js';
import { bullPrefix } from './chunk-queue.js';

/** Name of the delivery queue. */
export const DELIVERY_QUEUE = 'webhook-deliveries';

/** Deliveries of one endpoint read per wake (its outbox's newest; older pending ones are found by the sweep). */
const WAKE_READ_LIMIT = 100;

/** One attempt of one delivery. */
export interface DeliveryJobData {
  readonly orgId: string;
  readonly webhookId: string;
  readonly deliveryId: string;
  /** Attempts the delivery had when the job was added: a job whose delivery moved on since is stale and does nothing. */
  readonly attempt: number;
}

/** What the delivery queue needs. */
export interface DeliveryQueueOptions {
  readonly redisUrl: string;
  readonly redisPrefix: string;
  /** Consume jobs on this node (ROLE=all|worker); false: only add them (ROLE=api). */
  readonly consume: boolean;
  /** Attempts this node makes at once. */
  readonly concurrency: number;
  /** Interval of the outbox sweep, in ms. */
  readonly sweepIntervalMs: number;
}

/** Adds and (on worker nodes) runs delivery jobs. */
export class DeliveryQueue {
  private readonly queue: Queue<DeliveryJobData>;
  private readonly producer: Redis;
  private readonly consumer: Redis | null = null;
  private readonly worker: Worker<DeliveryJobData> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: WebhooksRepository,
    /** Everything an attempt needs but the secret, and the secret of an endpoint. */
    private readonly attempt: Omit<AttemptContext, 'secret'> & { readonly secretOf: (webhookId: string) => string },
    private readonly options: DeliveryQueueOptions,
    /** Called when a job, an add or a sweep fails (each is tried again). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {
    this.producer = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.producer.on('error', () => undefined); // failed adds are reported by their callers
    const prefix = bullPrefix(options.redisPrefix);
    this.queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
      connection: this.producer,
      prefix,
      // A failed attempt job (the store unreachable while recording) is retried; the send's own
      // failures are not job failures: they are recorded and scheduled by the processor.
      defaultJobOptions: {
        attempts: 8,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: { age: 86_400 },
      },
    });
    this.queue.on('error', () => undefined);
    if (options.consume) {
      this.consumer = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
      this.consumer.on('error', () => undefined);
      this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job) => this.process(job), {
        connection: this.consumer,
        prefix,
        concurrency: options.concurrency,
        autorun: false,
      });
      this.worker.on('error', (error) => this.onFailure(error));
      this.worker.on('failed', (_job, error) => this.onFailure(error));
    }
  }

  /** Starts consuming and sweeping (worker nodes). */
  start(): void {
    if (!this.worker) return;
    void this.worker.run().catch(this.onFailure);
    this.sweepTimer = setInterval(() => {
      this.sweep().catch(this.onFailure);
    }, this.options.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  /** Adds the attempt jobs of `webhookIds`' pending deliveries (after the commit that put them in the outbox). */
  async wake(orgId: string, webhookIds: readonly string[]): Promise<void> {
    for (const webhookId of webhookIds) {
      const pending = (await this.store.deliveries(webhookId, WAKE_READ_LIMIT)).filter((d) => d.status === 'pending');
      await this.add(orgId, pending);
    }
  }

  /** Re-adds the jobs of every endpoint's pending deliveries (idempotent). @returns how many endpoints. */
  async sweep(): Promise<number> {
    const endpoints = await this.store.endpointsWithPending();
    for (const { orgId, webhookId } of endpoints) await this.wake(orgId, [webhookId]);
    return endpoints.length;
  }

  /**
   * One attempt of a delivery still `pending` and due, on an active endpoint; then the next attempt
   * job, delayed to its due time. Not due yet (a job added early): added again for its due time.
   */
  async process(job: Job<DeliveryJobData>): Promise<void> {
    const { orgId, webhookId, deliveryId } = job.data;
    const [endpoint, delivery] = await Promise.all([
      this.store.get(orgId, webhookId),
      this.store.getDelivery(webhookId, deliveryId),
    ]);
    if (!endpoint || endpoint.status !== 'active' || !delivery || delivery.status !== 'pending') return;
    if (delivery.attempts.length !== job.data.attempt) return; // stale: the job of the current attempt exists
    if (delivery.next_attempt_at !== null && delivery.next_attempt_at > this.attempt.now()) {
      await this.add(orgId, [delivery]);
      return;
    }
    const next = await attemptDelivery(
      { ...this.attempt, secret: this.attempt.secretOf(webhookId) },
      orgId,
      endpoint,
      delivery,
    );
    if (next.status === 'pending') await this.add(orgId, [next]);
  }

  /**
   * Resolves once no attempt job waits or runs (two reads 20 ms apart agree; retries not yet due may
   * remain, as with an actor's `settled`). Tests and shutdown.
   */
  async settled(timeoutMs = 10_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    let quiet = 0;
    while (quiet < 2 && performance.now() < deadline) {
      const c = await this.queue.getJobCounts('waiting', 'active', 'prioritized');
      quiet = (c['waiting'] ?? 0) + (c['active'] ?? 0) + (c['prioritized'] ?? 0) === 0 ? quiet + 1 : 0;
      if (quiet < 2) await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Stops consuming (active attempts finish) and closes the connections. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.worker?.close();
    await this.queue.close();
    this.consumer?.disconnect();
    this.producer.disconnect();
  }

  /** Adds one job per delivery for its next attempt, delayed until it is due. */
  private async add(orgId: string, deliveries: readonly DeliveryRecord[]): Promise<void> {
    if (deliveries.length === 0) return;
    const now = this.attempt.now();
    await this.queue.addBulk(
      deliveries.map((d) => ({
        name: 'attempt',
        data: { orgId, webhookId: d.webhook_id, deliveryId: d.delivery_id, attempt: d.attempts.length },
        opts: {
          jobId: `${d.delivery_id}-${d.attempts.length}`,
          delay: Math.max(0, (d.next_attempt_at ?? now) - now),
        },
      })),
    );
  }
}
