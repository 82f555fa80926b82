/**
 * @module engine/blueprint/agent: the settings of a Make AI agent module as the export carries them:
 * its tools (each a subflow of modules, `tools[].flow`, or a scenario used as a tool), whether a
 * tool runs without approval, and the agent's step limits. Read once by the parser; policies read
 * `ModuleNode.agent`. docs/engine.md "Blueprint coverage (issue 32)".
 *
 * Sources: the exports (`ai-local-agent:RunLocalAIAgent` with `tools[]` of `{ name, description,
 * flow }` and `mapper.modelConfig.{ recursionLimit, iterationsFromHistoryCount }`, make-more
 * `farhanillahiclass-sales-outreach-agent`; `ai-agent:RunAnAIAgent` naming an agent defined in Make,
 * `mapper.agent`, with `mapper.scenarios`), and Make's AI Agents API
 * (developers.make.com/api-documentation/api-reference/ai-agents: an agent's
 * `invocationConfig.recursionLimit`, `historyConfig.iterationsFromHistoryCount`, and per scenario
 * tool `scenarios[].approvalMode`, whose documented value `auto-run` runs the tool without asking).
 */
import type { Json, JsonObject } from './types.js';

/** Apps of Make's AI agent modules (`ai-agent:RunAnAIAgent`, `ai-local-agent:RunLocalAIAgent`; `make-ai-agents` as the AI policies name it). */
export const AGENT_APPS: ReadonlySet<string> = new Set(['ai-agent', 'ai-local-agent', 'make-ai-agents']);

/** Make's `approvalMode` that runs a tool without asking anyone (AI Agents API, `scenarios[].approvalMode`). */
export const AUTO_RUN = 'auto-run';

/** One tool an agent may call. */
export interface AgentTool {
  /** `flow`: a subflow of modules in the export (`tools[i].flow`); `scenario`: another scenario used as a tool (`mapper.scenarios[i]`). */
  readonly kind: 'flow' | 'scenario';
  /** The tool's name as the model sees it (`tools[i].name`), `null` when absent. */
  readonly name: string | null;
  /** What the tool does, as the model is told (`tools[i].description`), `null` when absent. */
  readonly description: string | null;
  /** Ids of the tool's modules (`flow` tools), in order; `[]` for a scenario tool. */
  readonly moduleIds: readonly string[];
  /** The scenario a `scenario` tool runs (its id as exported), `null` for `flow` tools or when absent. */
  readonly scenarioId: string | null;
  /** `approvalMode` as exported (`auto-run`...), `null` when the export does not say (none of the corpora's exports does). */
  readonly approvalMode: string | null;
  /**
   * True when the tool runs without approval (`approvalMode` `auto-run`), false for another
   * exported mode, `null` when the export carries no approval mode.
   */
  readonly runsWithoutApproval: boolean | null;
  /** RFC 6901 pointer of the tool object (`/flow/1/tools/0`, `/flow/1/mapper/scenarios/0`). */
  readonly pointer: string;
}

/** An agent module's settings. */
export interface AgentSettings {
  /**
   * `scenario`: an agent configured in the module itself (`ai-local-agent`: system prompt, model and
   * tools in the export); `make`: an agent defined in Make and named by id (`ai-agent`, `mapper.agent`),
   * whose own tools are not in the export.
   */
  readonly defined: 'scenario' | 'make';
  /** The Make agent's id (`mapper.agent`), `null` for an agent configured in the module. */
  readonly agentId: string | null;
  /** Its tools in the export, in order: `tools[]`, then `mapper.scenarios[]`. */
  readonly tools: readonly AgentTool[];
  /**
   * Most steps (model calls and tool calls) in one run (`mapper.modelConfig.recursionLimit`, Make's
   * `invocationConfig.recursionLimit`), `null` when not set: Make's default applies.
   */
  readonly recursionLimit: number | null;
  /** Earlier iterations of the thread fed back to the model (`iterationsFromHistoryCount`), `null` when not set. */
  readonly historyIterations: number | null;
}

/** A tool subflow as the parser walked it. */
export interface ToolFlow {
  readonly raw: JsonObject;
  readonly moduleIds: readonly string[];
  readonly pointer: string;
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: Json | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A positive integer written as a number or as text (`300`, `"300"`), else `null` (empty, mapped, other). */
function count(v: Json | undefined): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
}

function approval(mode: string | null): boolean | null {
  return mode === null ? null : mode === AUTO_RUN;
}

/**
 * The agent settings of a module, or `null` when it is not an agent: its app is an agent app
 * (`AGENT_APPS`) or it carries tool subflows.
 * @param app the module's app (`ai-local-agent`).
 * @param mapper the module's mapper.
 * @param pointer the module's pointer (for the pointers of scenario tools).
 * @param tools the module's tool subflows as the parser walked them (`tools[i]`).
 */
export function readAgentSettings(
  app: string,
  mapper: JsonObject | null,
  pointer: string,
  tools: readonly ToolFlow[],
): AgentSettings | null {
  if (!AGENT_APPS.has(app) && tools.length === 0) return null;
  const out: AgentTool[] = tools.map((t) => {
    const mode = text(t.raw['approvalMode']);
    return {
      kind: 'flow',
      name: text(t.raw['name']),
      description: text(t.raw['description']),
      moduleIds: t.moduleIds,
      scenarioId: null,
      approvalMode: mode,
      runsWithoutApproval: approval(mode),
      pointer: t.pointer,
    };
  });
  const scenarios = mapper?.['scenarios'];
  if (Array.isArray(scenarios))
    scenarios.forEach((s, i) => {
      if (!isObject(s) && typeof s !== 'string' && typeof s !== 'number') return;
      const id = isObject(s) ? (s['makeScenarioId'] ?? s['scenarioId'] ?? s['scenario'] ?? null) : s;
      const mode = isObject(s) ? text(s['approvalMode']) : null;
      out.push({
        kind: 'scenario',
        name: isObject(s) ? text(s['name']) : null,
        description: isObject(s) ? text(s['description']) : null,
        moduleIds: [],
        scenarioId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
        approvalMode: mode,
        runsWithoutApproval: approval(mode),
        pointer: `${pointer}/mapper/scenarios/${i}`,
      });
    });
  const config = isObject(mapper?.['modelConfig']) ? mapper['modelConfig'] : null;
  const invocation = isObject(mapper?.['invocationConfig']) ? mapper['invocationConfig'] : null;
  const agentId = text(mapper?.['agent']);
  return {
    defined: app !== 'ai-local-agent' && (agentId !== null || app === 'ai-agent') ? 'make' : 'scenario',
    agentId,
    tools: out,
    recursionLimit: count(config?.['recursionLimit'] ?? invocation?.['recursionLimit']),
    historyIterations: count(config?.['iterationsFromHistoryCount']),
  };
}
