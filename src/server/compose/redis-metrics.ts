/**
 * @module server/compose/redis-metrics: Redis command latency (`gov_redis_command_seconds`) from
 * ioredis's diagnostics channel `ioredis:command` (ioredis ≥ 5.9 publishes every command there when
 * the channel has subscribers; nothing is published, and nothing costs, in LMDB mode).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import type { Metrics } from '../metrics.js';

/** Blocking commands wait for work by design (BullMQ's workers): their time is not latency. */
const BLOCKING = /^(bzpopmin|bzpopmax|brpoplpush|blmove|brpop|blpop|xread|xreadgroup)$/i;

/** What ioredis puts in the channel's context (ioredis built/tracing: CommandTraceContext). */
interface CommandContext {
  readonly command?: string;
  startedAt?: number;
}

/** Subscribes the histogram to every Redis command of this process. @returns the unsubscribe function. */
export function observeRedisCommands(metrics: Metrics): () => void {
  const channel = tracingChannel<unknown, CommandContext>('ioredis:command');
  const observe = (ctx: CommandContext): void => {
    if (ctx.startedAt === undefined || ctx.command === undefined || BLOCKING.test(ctx.command)) return;
    metrics.redisCommandSeconds.labels(ctx.command.toLowerCase()).observe((performance.now() - ctx.startedAt) / 1000);
  };
  const handlers = {
    start(ctx: CommandContext) {
      ctx.startedAt = performance.now();
    },
    end() {},
    asyncStart() {},
    asyncEnd: observe,
    error: observe,
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
