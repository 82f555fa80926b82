/**
 * @module actors/cluster/chunk-jobs: what a chunk job of cluster mode carries (issue 16: "scenario
 * chunks are BullMQ jobs"), and how an evaluation is cut into them. Pure.
 */
import type { EvaluationRecord } from '../../model/records.js';
import type { ScenarioInput } from '../evaluation-actor.js';
import { CHUNK_SIZE } from '../evaluation-actor.js';

/** One scenario of a chunk job. */
export interface ChunkJobScenario {
  /** Index in the evaluation's `scenario_ids`. */
  readonly index: number;
  readonly scenarioId: string;
  /** Stored batches: the blueprint version to read from the store (the job stays small). */
  readonly version?: number;
  /** Ephemeral batches: the blueprint itself, base64 (it was never stored; at most the 2 MiB body limit, spec §8). */
  readonly blueprint?: string;
  /** Test-only fault injection (the X-Test-Fault header of the test server), passed to the worker as is. */
  readonly fault?: ScenarioInput['fault'];
}

/** The data of one chunk job: JSON, as BullMQ stores it in Redis. */
export interface ChunkJobData {
  readonly evaluationId: string;
  readonly orgId: string;
  readonly scenarios: readonly ChunkJobScenario[];
}

/** A chunk job to add: its id makes adding it twice a no-op (BullMQ keeps one job per id). */
export interface ChunkJob {
  readonly jobId: string;
  readonly data: ChunkJobData;
}

/**
 * Cuts `record`'s scenarios into jobs of CHUNK_SIZE, in order: `<evaluation id>-<chunk number>`.
 * Stored scenarios carry their version, ephemeral ones their blueprint.
 */
export function chunkJobs(record: EvaluationRecord, inputs: readonly ScenarioInput[]): ChunkJob[] {
  const jobs: ChunkJob[] = [];
  for (let start = 0, n = 0; start < inputs.length; start += CHUNK_SIZE, n++) {
    const scenarios = inputs.slice(start, start + CHUNK_SIZE).map((input, i): ChunkJobScenario => {
      const index = start + i;
      return {
        index,
        scenarioId: input.scenarioId,
        ...(record.kind === 'stored'
          ? { version: record.versions[index] ?? 0 }
          : { blueprint: Buffer.from(input.blueprint).toString('base64') }),
        ...(input.fault ? { fault: input.fault } : {}),
      };
    });
    jobs.push({
      jobId: `${record.evaluation_id}-${n}`,
      data: { evaluationId: record.evaluation_id, orgId: record.org_id, scenarios },
    });
  }
  return jobs;
}
