/** @module engine/policies/ai/AI-8: an AI agent's own settings let it act unsupervised. */
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { AgentTool } from '../../blueprint/agent.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { EvidenceStep } from '../../risk/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { riskRow } from '../../risk/model.js';
import { findingModules, moduleRef } from '../helpers.js';

/** Effects of a tool module that act on the world (`classify().effect`): a write, a message, a delete. */
const ACTS: ReadonlySet<string> = new Set(['write', 'send', 'delete']);

/**
 * The module through which a tool acts: its first module that writes, sends or deletes; for a
 * scenario used as a tool (its modules are in another scenario) the agent itself, since what that
 * scenario does cannot be seen; `null` when the tool only reads or computes.
 */
function actingModule(analysis: Analysis, agent: ModuleNode, tool: AgentTool): ModuleNode | null {
  if (tool.kind === 'scenario') return agent;
  for (const id of tool.moduleIds) {
    const m = analysis.graph.byId.get(id);
    // A draft is the review step (a person sends it), not an action.
    if (m && ACTS.has(classify(m).effect) && !classify(m).draft) return m;
  }
  return null;
}

/** The risk model's source trust of an untrusted source kind (`sources.ts`). */
function trustOf(kind: string | undefined): 'public-webhook' | 'inbound-message' | 'fetched-page' {
  return kind === 'webhook' ? 'public-webhook' : kind === 'feed' || kind === 'web' ? 'fetched-page' : 'inbound-message';
}

/**
 * AI-8: an AI agent (Make AI Agents, `ai-agent:*`, `ai-local-agent:*`) whose export says a tool that
 * writes, sends or deletes runs without approval (`approvalMode: auto-run`), or whose tools run with
 * no recursion limit. Only what the export carries is judged: a tool whose approval mode the export
 * does not state is left to AI-2, which treats an agent fed untrusted input as acting (R4).
 * Severity from the risk model (`risk/model.ts`): R27 high when attacker-controlled input instructs
 * the agent, R28 medium when it is fed internal data, R29 low for the missing recursion limit.
 */
export const AI_8: Policy = {
  code: 'AI-8',
  title: 'AI agent tool acts without approval',
  category: 'AI',
  severity: 'high',
  description:
    "An AI agent has a tool that writes, sends or deletes and is set to run without anyone's approval, so the model alone decides each action; high when the agent reads input from outside (a webhook, an inbound message, a fetched page). An agent with tools that sets no recursion limit is reported low.",
  rationale:
    "An agent that takes consequential actions on its own has excessive agency (OWASP LLM06:2025): prompt injection in its input (LLM01:2025) becomes an action in the organisation's name, with no human able to stop it (EU AI Act Art. 14 human oversight). Make's AI Agents let each tool require approval (`approvalMode`) and bound the steps of a run (`recursionLimit`); unbounded steps are unbounded cost (LLM10:2025).",
  compliance_frameworks: [ref(F.aiAct, 'Art. 14'), ref(F.iso27001, 'A.8.26'), ref(F.soc2, 'CC6.1')],
  examples: {
    avoid: 'A *Send an e-mail* tool with `"approvalMode": "auto-run"` on an agent that reads inbound mail.',
    prefer:
      'Tools that write or send require approval; the agent drafts and a person approves. Set *Recursion limit* to the steps a run needs.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const agent of analysis.graph.modules) {
      const settings = agent.agent;
      if (!settings || settings.tools.length === 0) continue;
      // Where the agent's untrusted input comes from (the source module), `null` when it reads none.
      const input = df.untrustedInputs(agent.id)[0];
      const origin = input ? (df.untrustedOriginOf(input.moduleId) ?? input.moduleId) : null;
      const source = origin !== null ? df.untrustedSourceOf(origin) : null;
      for (const tool of settings.tools) {
        if (tool.runsWithoutApproval !== true) continue;
        const acting = actingModule(analysis, agent, tool);
        if (!acting) continue;
        const risk = riskRow(origin !== null ? 'R27' : 'R28', {
          trust: origin === null ? 'internal-record' : trustOf(source?.kind),
          impact: acting === agent ? 'write-own' : classify(acting).effect === 'delete' ? 'delete' : 'send',
        });
        const path: EvidenceStep[] = [
          ...(origin !== null
            ? [{ moduleId: origin, role: 'source' as const, note: source?.label ?? 'untrusted input' }]
            : []),
          {
            moduleId: agent.id,
            role: origin !== null ? ('step' as const) : ('source' as const),
            note: 'the agent decides',
          },
          ...(acting !== agent
            ? [{ moduleId: acting.id, role: 'sink' as const, note: `tool \`${tool.name ?? '?'}\` acts, no approval` }]
            : []),
        ];
        findings.push({
          moduleId: acting.id,
          reason: `agent ${agent.id}'s tool \`${tool.name ?? tool.scenarioId ?? '?'}\` ${acting === agent ? 'runs another scenario' : `${classify(acting).effect === 'send' ? 'sends' : classify(acting).effect === 'delete' ? 'deletes' : 'writes'} through module ${acting.id}`} without approval (\`approvalMode: ${tool.approvalMode}\`)${origin !== null ? `, on input from ${source?.label ?? `module ${origin}`}` : ''}`,
          severity: risk.severity,
          evidence: { pointer: `${tool.pointer}/approvalMode` },
          risk,
          path,
        });
      }
      if (settings.defined === 'scenario' && settings.recursionLimit === null) {
        const risk = riskRow('R29', { impact: 'spend' });
        findings.push({
          moduleId: agent.id,
          reason: `agent with ${settings.tools.length} tool${settings.tools.length === 1 ? '' : 's'} sets no recursion limit: Make's default bounds the steps of a run`,
          severity: risk.severity,
          risk,
        });
      }
    }
    if (findings.length === 0) return null;
    const acting = findings.filter((f) => f.risk?.id !== 'R29').length;
    return {
      status: acting > 0 ? 'fail' : 'warn',
      findings,
      summary:
        acting > 0
          ? `${acting} agent tool${acting === 1 ? '' : 's'} write, send or delete without approval`
          : 'An AI agent with tools sets no recursion limit',
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `For ${moduleRef(m)}, set the tool to require approval, or replace the action with a draft a person sends.`,
      );
      steps.push("Set the agent's *Recursion limit* to the number of steps one run needs.");
      return steps;
    },
  },
};
