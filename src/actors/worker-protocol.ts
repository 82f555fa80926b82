/** @module actors/worker-protocol: messages between the main thread and evaluation workers (types, and the decoding of packed remediation). */
import { unpack } from 'msgpackr';
import type { GovernanceSettingsBody, RemediationMap, RollupContribution, ScenarioSummary } from '../model/records.js';
import type { FieldError } from '../api/field-error.js';
import type { ActiveWaiver } from '../engine/waivers.js';
import type { GovernancePin } from '../api/views/scenario-results.js';
import { CATALOG_REVISION } from '../engine/index.js';

/**
 * The organization's governance context of a task (issue 17): its pin (recorded in the results) and,
 * when the organization has settings or custom rules, their bodies. Workers compile it once per
 * `key` (organization, settings version, rules revision: immutable) and keep it.
 */
export interface GovernanceTaskContext {
  readonly pin: GovernancePin;
  /** `<org>:<settings version>:<rules revision>`. */
  readonly key: string;
  readonly settings: GovernanceSettingsBody | null;
  /** Custom rules in force at the pinned revision (`ORG-<n>` code and validated body). */
  readonly rules: readonly { readonly code: string; readonly rule: Readonly<Record<string, unknown>> }[];
}

/** The context of an organization without settings or custom rules (the built-in catalog as published). */
export const DEFAULT_GOVERNANCE: GovernanceTaskContext = {
  pin: { settings_version: 0, rules_revision: 0, catalog_revision: CATALOG_REVISION },
  key: 'default',
  settings: null,
  rules: [],
};

/** Evaluate one stored or ephemeral scenario. The blueprint travels as raw JSON bytes (PITFALLS 15). */
export interface ScenarioTask {
  readonly kind: 'scenario';
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  readonly evaluationId: string;
  /** ISO time stamped into the results. */
  readonly evaluatedAt: string;
  readonly governance: GovernanceTaskContext;
  /** Waivers of this scenario in force at `evaluatedAt`. */
  readonly waivers?: readonly ActiveWaiver[];
  /** Test hook: makes the worker misbehave (`throw`, `exit`, `oom`, `hang`); honoured only when fault injection is enabled. */
  readonly fault?: 'throw' | 'exit' | 'oom' | 'hang';
}

/** One scenario of a chunk: its position in the evaluation and its stored blueprint bytes. */
export interface ChunkScenario {
  readonly index: number;
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  /** Waivers of this scenario in force at the chunk's `evaluatedAt` (stored scenarios; none when absent). */
  readonly waivers?: readonly ActiveWaiver[];
  readonly fault?: ScenarioTask['fault'];
}

/**
 * Evaluate several scenarios of one evaluation in one task, in order. Each outcome is posted to the
 * main thread (`ChunkProgress` on the worker's parentPort) as soon as it is ready, so progress stays
 * per scenario while the pool pays one dispatch per chunk; the task's own answer is only the count.
 */
export interface ChunkTask {
  readonly kind: 'chunk';
  readonly chunkId: number;
  readonly evaluationId: string;
  /** ISO time stamped into the results. */
  readonly evaluatedAt: string;
  readonly governance: GovernanceTaskContext;
  readonly scenarios: readonly ChunkScenario[];
}

/**
 * What a worker posts for a chunk: once when it starts it (the scenario time budget runs from
 * there, not from submission), then once per scenario.
 */
export type ChunkProgress =
  | { readonly chunkId: number; readonly started: true; readonly startedAtMs: number }
  | {
      readonly chunkId: number;
      readonly started?: undefined;
      readonly index: number;
      readonly result: ScenarioTaskResult;
    };

/** Evaluate a raw `POST /evaluate/inline` body: the worker parses and validates it. */
export interface InlineTask {
  readonly kind: 'inline';
  readonly body: Uint8Array;
  readonly governance: GovernanceTaskContext;
}

/**
 * Draw a stored scenario (issue 18, the console's scenario page): the worker parses the blueprint
 * bytes and the stored results JSON (never the main thread) and renders the SVG (src/render).
 */
export interface RenderTask {
  readonly kind: 'render';
  readonly scenarioId: string;
  readonly blueprint: Uint8Array;
  /** The scenario's latest results `data` JSON (its violations mark the modules), or null when never evaluated. */
  readonly results: Uint8Array | null;
}

/** Result of a RenderTask. */
export type RenderTaskResult =
  | { readonly ok: true; readonly svg: string }
  | { readonly ok: false; readonly code: 'blueprint_invalid'; readonly message: string };

/** Any task. */
export type WorkerTask = ScenarioTask | ChunkTask | InlineTask | RenderTask;

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
      /** Pre-rendered `data` of GET /scenarios/{id}/results, as UTF-8 JSON bytes (stored and sent as is). */
      readonly results: Uint8Array;
      /**
       * Pre-rendered remediation `data` per violated policy (null when generation failed), as a
       * msgpack map packed in the worker (`RemediationMap` once unpacked): the main thread stores the
       * bytes without encoding them.
       */
      readonly remediation: Uint8Array;
      /** This scenario's share of the organization rollup. */
      readonly contribution: RollupContribution;
      readonly moduleCount: number;
      readonly stats: TaskStats;
    }
  | {
      readonly ok: false;
      readonly code: 'blueprint_invalid' | 'engine_failed';
      readonly message: string;
      readonly name: string;
    }
  /** A scenario of a chunk that threw inside the worker (the same outcome as a single task that threw). */
  | { readonly ok: false; readonly code: 'worker_error'; readonly message: string };

/** The outcome message of a scenario that threw inside a worker (one task or one scenario of a chunk). */
export const WORKER_ERROR_MESSAGE = 'evaluation failed inside the worker';

export type { RemediationMap } from '../model/records.js';

/** The RemediationMap a worker packed (ScenarioTaskResult `remediation`). */
export function unpackRemediation(packed: Uint8Array): RemediationMap {
  return unpack(packed) as RemediationMap;
}

/**
 * Result of an InlineTask. `json` is the response `data`; `save` carries what to store on opt-in.
 * `code: 'invalid'`: the body failed parsing, the schema or the blueprint parse (→ 400 with `detail`);
 * tagged so that it stays apart from the pool's `TaskFailure` codes it is returned with.
 */
export type InlineTaskResult =
  | {
      readonly ok: true;
      /**
       * The response `data` as UTF-8 JSON bytes: they arrive on the main thread off its heap and go
       * into the envelope by copy (a string would be cloned onto the heap and re-encoded on the way out).
       */
      readonly json: Uint8Array;
      readonly save: {
        readonly scenarioId: string | null;
        readonly name: string;
        readonly blueprintJson: string;
        readonly moduleCount: number;
      } | null;
      readonly stats: TaskStats;
    }
  | { readonly ok: false; readonly code: 'invalid'; readonly detail: readonly FieldError[] };
