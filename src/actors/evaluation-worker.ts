/**
 * @module actors/evaluation-worker: the piscina worker entry. Runs the pure engine on raw bytes and
 * returns pre-rendered JSON; never imports the pool, the store or the container (STYLE: piscina).
 */
import type {
  ChunkProgress,
  ChunkTask,
  InlineTask,
  InlineTaskResult,
  RenderTask,
  RenderTaskResult,
  ScenarioTask,
  ScenarioTaskResult,
  WorkerTask,
} from './worker-protocol.js';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { WORKER_ERROR_MESSAGE } from './worker-protocol.js';
import { pack } from 'msgpackr';
import { evaluateBlueprint, parseBlueprint } from '../engine/index.js';
import { renderScenarioSvg, type RenderViolation } from '../render/index.js';
import { applyWaivers } from '../engine/waivers.js';
import { engineOptionsOf } from './worker-governance.js';
import { compileValidators, fieldErrors, parseJsonBody, parseStoredJson } from '../api/requests.js';
import { contribution, violationStats } from './outcome.js';
import { inlineView } from '../api/views/inline.js';
import { renderRemediation } from '../api/views/remediation.js';
import { renderResults, summarize } from '../api/views/scenario-results.js';

const validators = compileValidators();
const faultsEnabled = process.env['GOV_ENABLE_FAULT_INJECTION'] === '1';

/** Piscina task handler. */
export default function handle(
  task: WorkerTask,
): ScenarioTaskResult | InlineTaskResult | RenderTaskResult | { delivered: number } {
  if (task.kind === 'chunk') return evaluateChunk(task);
  if (task.kind === 'render') return render(task);
  return task.kind === 'scenario' ? evaluateScenario(task) : evaluateInline(task);
}

const encoder = new TextEncoder();

/**
 * Evaluates a chunk in order and posts each outcome at once (`ChunkProgress`). A scenario that throws
 * fails alone; one that exits, exhausts memory or hangs ends the task, and the pool re-runs the
 * scenarios it has not heard of one per task.
 */
function evaluateChunk(task: ChunkTask): { delivered: number } {
  const started: ChunkProgress = { chunkId: task.chunkId, started: true, startedAtMs: nowMs() };
  parentPort!.postMessage(started);
  for (const s of task.scenarios) {
    let result: ScenarioTaskResult;
    try {
      result = evaluateScenario({
        kind: 'scenario',
        scenarioId: s.scenarioId,
        blueprint: s.blueprint,
        evaluationId: task.evaluationId,
        evaluatedAt: task.evaluatedAt,
        governance: task.governance,
        ...(s.waivers ? { waivers: s.waivers } : {}),
        ...(s.fault ? { fault: s.fault } : {}),
      });
    } catch {
      result = { ok: false, code: 'worker_error', message: WORKER_ERROR_MESSAGE };
    }
    const progress: ChunkProgress = { chunkId: task.chunkId, index: s.index, result };
    parentPort!.postMessage(progress);
  }
  return { delivered: task.scenarios.length };
}

/** Own-buffer copy: a pooled Buffer view would drag its whole slab through structured cloning. */
const exact = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes);

function injectFault(fault: ScenarioTask['fault']): void {
  if (!faultsEnabled || !fault) return;
  if (fault === 'throw') throw new Error('injected fault');
  if (fault === 'exit') process.exit(3);
  if (fault === 'hang')
    for (;;) {
      /* busy loop until the task's time budget aborts it */
    }
  if (fault === 'oom') {
    const hog: unknown[] = [];
    for (;;) hog.push(new Array(1e6).fill(hog.length));
  }
}

const nowMs = (): number => performance.timeOrigin + performance.now();

function evaluateScenario(task: ScenarioTask): ScenarioTaskResult {
  const startedAtMs = nowMs();
  injectFault(task.fault);
  const started = performance.now();
  const parsed = parseStoredJson(task.blueprint);
  if (!parsed.ok)
    return {
      ok: false,
      code: 'blueprint_invalid',
      message: 'stored blueprint is not valid JSON',
      name: task.scenarioId,
    };
  const name =
    typeof (parsed.value as { name?: unknown })?.name === 'string'
      ? (parsed.value as { name: string }).name
      : task.scenarioId;
  const result = evaluateBlueprint(parsed.value, {
    scenarioId: task.scenarioId,
    ...engineOptionsOf(task.governance),
  });
  if (!result.ok) {
    const issue = result.error.issues[0];
    return {
      ok: false,
      code: 'blueprint_invalid',
      message: issue ? `${issue.message} at ${issue.pointer || '/'}` : result.error.message,
      name,
    };
  }
  const ev = applyWaivers(result.evaluation, task.waivers ?? []);
  return {
    ok: true,
    name: ev.scenario_name,
    summary: summarize(task.scenarioId, ev),
    results: encoder.encode(
      renderResults(task.scenarioId, ev, task.evaluationId, task.evaluatedAt, task.governance.pin),
    ),
    remediation: exact(pack(renderRemediation(ev))),
    contribution: contribution(ev),
    moduleCount: ev.module_count,
    stats: { ...violationStats(ev, performance.now() - started), startedAtMs },
  };
}

/** The SVG of a stored scenario, its modules marked by its latest results' violations. */
function render(task: RenderTask): RenderTaskResult {
  const parsed = parseStoredJson(task.blueprint);
  const graph = parsed.ok ? parseBlueprint(parsed.value) : null;
  if (!graph?.ok) return { ok: false, code: 'blueprint_invalid', message: 'the stored blueprint cannot be drawn' };
  const results = task.results === null ? null : parseStoredJson(task.results);
  const violations =
    results?.ok === true ? ((results.value as { violations?: RenderViolation[] }).violations ?? []) : [];
  return { ok: true, svg: renderScenarioSvg(graph.graph, violations, { idPrefix: `scenario-${task.scenarioId}` }) };
}

function evaluateInline(task: InlineTask): InlineTaskResult {
  const startedAtMs = nowMs();
  const started = performance.now();
  const parsed = parseJsonBody(task.body);
  if (!parsed.ok) return { ok: false, code: 'invalid', detail: parsed.detail };
  if (!validators.inline(parsed.value))
    return { ok: false, code: 'invalid', detail: fieldErrors(validators.inline.errors) };
  const body = parsed.value as {
    blueprint: unknown;
    include_remediation?: boolean;
    save_to_workspace?: boolean;
    scenario_id?: string;
  };
  const scenarioId = body.scenario_id ?? 'inline';
  const result = evaluateBlueprint(body.blueprint, { scenarioId, ...engineOptionsOf(task.governance) });
  if (!result.ok)
    return {
      ok: false,
      code: 'invalid',
      detail: result.error.issues.map((i) => ({ path: `/blueprint${i.pointer}`, message: i.message })),
    };
  // Waivers name stored scenarios: an inline evaluation has none to apply.
  const ev = applyWaivers(result.evaluation, []);
  return {
    ok: true,
    json: encoder.encode(JSON.stringify(inlineView(ev, body.include_remediation === true, task.governance.pin))),
    save:
      body.save_to_workspace === true
        ? {
            scenarioId: body.scenario_id ?? null,
            name: ev.scenario_name,
            blueprintJson: JSON.stringify(body.blueprint),
            moduleCount: ev.module_count,
          }
        : null,
    stats: { ...violationStats(ev, performance.now() - started), startedAtMs },
  };
}
