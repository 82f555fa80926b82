/** @module bench/lib/submit-batches: submits stored-id batches of 10 from concurrent clients (the batch, cluster and profile benchmarks). */
import type { GovernanceClient } from '@gov/sdk';

/**
 * Concurrent submitting clients (BENCH_SUBMITTERS, default 16): a high-volume tenant submits in
 * parallel, and each submit waits for a durable flush (~5–20 ms), so 4 clients left the service
 * idle between flushes and measured the submit round trip instead of evaluation throughput.
 */
const SUBMITTERS = Number(process.env['BENCH_SUBMITTERS'] ?? 16);

/** The ids of `batchBlueprints()` as stored: `b0` … `b99`. */
export const BATCH_IDS: readonly string[] = Array.from({ length: 100 }, (_, i) => `b${i}`);

/** One submitted batch: its evaluation and the client (node) it was submitted through. */
export interface Submitted {
  readonly id: string;
  readonly client: GovernanceClient;
}

/**
 * Submits `count` batches of 10 stored scenarios (`ids` in turn, default `b0` … `b99`) from
 * SUBMITTERS concurrent clients; submitter i sends through `clients[i % clients.length]` (one client
 * per node spreads the submissions over the nodes). `extra` fields go into every body (they make
 * each one distinct).
 * @throws GovernanceApiError when a submit is refused (the SDK retries only what the spec's matrix allows).
 */
export async function submitBatches(
  clients: readonly GovernanceClient[],
  count: number,
  extra: Record<string, unknown>,
  ids: readonly string[] = BATCH_IDS,
): Promise<Submitted[]> {
  const out: Submitted[] = [];
  let next = 0;
  const submitter = async (client: GovernanceClient) => {
    while (next < count) {
      const b = next++;
      // Extra members (ignored by the service) make each body distinct; a variable, so TypeScript allows them.
      const body = {
        scenario_ids: Array.from({ length: 10 }, (_, i) => ids[(b * 10 + i) % ids.length]!),
        batch: b,
        ...extra,
      };
      const res = await client.submitEvaluation(body);
      out.push({ id: res.data.evaluation_id, client });
    }
  };
  await Promise.all(Array.from({ length: SUBMITTERS }, (_, i) => submitter(clients[i % clients.length]!)));
  return out;
}
