/** @module engine: public surface of the pure policy engine (re-exports only). */
export { evaluateBlueprint, runPolicy } from './evaluate.js';
export type {
  EvaluateOptions,
  EvaluateResult,
  EvidencePathStep,
  EvidenceRisk,
  FailingModule,
  FindingEvidence,
  ModuleGraph,
  ModuleSummaryEntry,
  Remediation,
  ScenarioEvaluation,
  Violation,
} from './evaluate.js';
export { parseBlueprint, humanizeModuleType } from './blueprint/parse.js';
export type {
  GraphEdge,
  GraphEdgeKind,
  IfElseBranch,
  ModuleContainer,
  ModuleFilter,
  ScenarioGraph,
  ModuleNode,
} from './blueprint/types.js';
export type { AgentSettings, AgentTool } from './blueprint/agent.js';
export { POLICIES, POLICY_BY_CODE, CATALOG_REVISION, RETIRED_CODES } from './policies/catalog.js';
export type { Policy, PolicyCategory, PolicyParameter, PolicyParams } from './policies/types.js';
export { paramValue } from './policies/params.js';
export { validateSettings, settingsSchema } from './governance/settings.js';
export type { GovernanceSettingsBody, SettingsProblem, SettingsValidation } from './governance/settings.js';
export { effectiveCatalog } from './governance/effective.js';
export type { EffectiveParameter, EffectivePolicy } from './governance/effective.js';
export type { EngineError, EngineIssue } from './errors.js';
export type { Severity } from './severity.js';
export { SEVERITY_RANK, SCORE_PENALTY } from './severity.js';
export { CONTROL_REGISTRY, gapLabel, refId } from './frameworks/registry.js';
export type { FrameworkRef } from './frameworks/registry.js';
