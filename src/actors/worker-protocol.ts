/** @module actors/worker-protocol: messages between the main thread and evaluation workers (shared types only). */
import type { RollupContribution, ScenarioSummary } from '../store/records.js';

/** Evaluate one stored or ephemeral scenario. The blueprint travels as raw JSON bytes (PITFALLS 15). */
export interface ScenarioTask {
  readonly kind: 'scenario';
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  readonly evaluationId: string;
  /** ISO time stamped into the results. */
  readonly evaluatedAt: string;
  /** Test hook: makes the worker misbehave (`throw`, `exit`, `oom`, `hang`); honoured only when fault injection is enabled. */
  readonly fault?: 'throw' | 'exit' | 'oom' | 'hang';
}

/** Evaluate a raw `POST /evaluate/inline` body: the worker parses and validates it. */
export interface InlineTask {
  readonly kind: 'inline';
  readonly body: Uint8Array;
}

/** Any task. */
export type WorkerTask = ScenarioTask | InlineTask;

/** Measurements a worker sends back for the main registry (PITFALLS 17). */
export interface TaskStats {
  /** Parse + evaluate time in ms. */
  readonly evaluateMs: number;
  readonly modules: number;
  /** Violations by `category|severity`. */
  readonly violations: Readonly<Record<string, number>>;
  /** Epoch ms (performance.timeOrigin + now) when the worker started the task: the pool derives the queue wait. */
  readonly startedAtMs: number;
}

/** Result of a ScenarioTask: failures travel as data, never as thrown errors (STYLE: piscina). */
export type ScenarioTaskResult =
  | {
    readonly ok: true;
    readonly name: string;
    readonly summary: ScenarioSummary;
    /** Pre-rendered `data` of GET /scenarios/{id}/results. */
    readonly resultsJson: string;
    /** Pre-rendered remediation `data` per violated policy (null when generation failed). */
    readonly remediation: Readonly<Record<string, string | null>>;
    /** This scenario's share of the organization rollup. */
    readonly contribution: RollupContribution;
    readonly moduleCount: number;
    readonly stats: TaskStats;
  }
  | { readonly ok: false; readonly code: 'blueprint_invalid' | 'engine_failed'; readonly message: string; readonly name: string };

/** One field error of a 422 (JSON Pointer into the request body). */
export interface WireFieldError {
  readonly path: string;
  readonly message: string;
}

/** Result of an InlineTask. `json` is the response `data`; `save` carries what to store on opt-in. */
export type InlineTaskResult =
  | {
    readonly ok: true;
    readonly json: string;
    readonly save: { readonly scenarioId: string | null; readonly name: string; readonly blueprintJson: string; readonly moduleCount: number } | null;
    readonly stats: TaskStats;
  }
  | { readonly ok: false; readonly detail: readonly WireFieldError[] };
