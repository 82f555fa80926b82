/**
 * @module actors/webhooks/delivery-actor: one actor per webhook endpoint. It owns the endpoint's
 * pending deliveries, sends them one at a time in creation order, and persists every attempt and
 * every state change to the store before moving on, so a restart resumes exactly where it stopped
 * (at-least-once delivery).
 */
import type { DeliveryRecord, WebhookRecord } from '../../model/records.js';
import type { WebhooksRepository } from '../../store/webhooks/repository.js';
import type { SendResult } from './send.js';
import { attemptDelivery, type DeliveryOptions, type Sender } from './attempt.js';

export { retryDelay, type DeliveryOptions, type Sender } from './attempt.js';

/** Messages of a delivery actor. */
export type DeliveryMessage = { readonly type: 'wake' } | { readonly type: 'stop' };

/** Owns one endpoint's outbox. */
export class DeliveryActor {
  private running = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private idle: (() => void) | null = null;

  constructor(
    private readonly store: WebhooksRepository,
    private readonly orgId: string,
    private readonly webhookId: string,
    private readonly secret: string,
    private readonly send: Sender,
    private readonly options: DeliveryOptions,
    private readonly now: () => number,
    private readonly onAttempt: (result: SendResult, delivery: DeliveryRecord) => void = () => undefined,
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** Handles a message; `wake` runs every due delivery, `stop` ends the actor after the current attempt. */
  tell(message: DeliveryMessage): void {
    if (message.type === 'stop') {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
      return;
    }
    if (!this.running && !this.stopped) this.drain().catch((error: unknown) => this.drainFailed(error));
  }

  /** Resolves once the actor has nothing due (tests, shutdown). */
  async settled(): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((r) => {
      this.idle = r;
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const [endpoint, due] = await Promise.all([
          this.store.get(this.orgId, this.webhookId),
          this.store.nextPending(this.webhookId),
        ]);
        if (!endpoint || endpoint.status !== 'active' || !due) return;
        if (due.next_attempt_at !== null && due.next_attempt_at > this.now()) {
          this.schedule(due.next_attempt_at - this.now());
          return;
        }
        await this.attempt(endpoint, due);
      }
    } finally {
      this.running = false;
      this.idle?.();
      this.idle = null;
    }
  }

  private async attempt(endpoint: WebhookRecord, d: DeliveryRecord): Promise<void> {
    await attemptDelivery(
      {
        store: this.store,
        secret: this.secret,
        send: this.send,
        options: this.options,
        now: this.now,
        onAttempt: this.onAttempt,
      },
      this.orgId,
      endpoint,
      d,
    );
  }

  /**
   * A drain failed outside the send (a failed write transaction, a read error): the delivery's last
   * committed state stands (the attempt is not recorded, so it is made again), the failure is
   * reported, and the actor tries again after the first retry delay. Never throws.
   */
  private drainFailed(error: unknown): void {
    this.onFailure(error);
    if (!this.stopped) this.schedule(this.options.backoffBaseMs);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.tell({ type: 'wake' });
      },
      Math.max(0, ms),
    );
    this.timer.unref();
  }
}
