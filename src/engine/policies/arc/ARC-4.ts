/** @module engine/policies/arc/ARC-4: deprecated modules and module versions. */
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';

/** One deprecation: which modules, why, what replaces them, how severe. */
interface Deprecation {
  readonly matches: (m: ModuleNode) => boolean;
  readonly reason: string;
  readonly replacement: string;
  readonly severity: Severity;
}

/**
 * Deprecations (sources: Make's HTTP app, where *Make a request* `http:MakeRequest` v4 supersedes the
 * legacy `http:ActionSendData*` v3 modules and *Download a file* `http:DownloadFile` v4 the legacy
 * *Get a file* `http:ActionGetFile` v3 (Make apps, "HTTP (legacy)": Version 3); Make's Google Sheets v1 "legacy" app; `util:SetVariable`
 * superseded by `util:SetVariable2`; OpenAI's shutdown of the GPT-3 completion models on 2024-01-04).
 */
export const DEPRECATIONS: readonly Deprecation[] = [
  {
    matches: (m) => m.app === 'http' && /^ActionSendData/.test(m.action) && (m.version ?? 3) <= 3,
    reason: 'legacy HTTP module (v3)',
    replacement: '*HTTP > Make a request* (`http:MakeRequest`, v4)',
    severity: 'low',
  },
  {
    matches: (m) => m.type === 'http:ActionGetFile' && (m.version ?? 3) <= 3,
    reason: 'legacy HTTP *Get a file* module (v3)',
    replacement: '*HTTP > Download a file* (`http:DownloadFile`, v4)',
    severity: 'low',
  },
  {
    matches: (m) => m.app === 'google-sheets' && m.version === 1,
    reason: 'Google Sheets legacy app (v1)',
    replacement: 'the current Google Sheets modules (v2)',
    severity: 'medium',
  },
  {
    matches: (m) => m.type === 'util:SetVariable' || m.type === 'util:GetVariable',
    reason: 'superseded variable module',
    replacement: '`util:SetVariable2` / `util:GetVariable2`',
    severity: 'low',
  },
  {
    matches: (m) =>
      m.app === 'openai-gpt-3' &&
      typeof m.mapper?.['model'] === 'string' &&
      /^(?:text-(?:davinci|curie|babbage|ada)|davinci|curie|babbage|ada|code-davinci)/.test(m.mapper['model']),
    reason: 'uses an OpenAI GPT-3 model that was shut down',
    replacement: 'a current chat model with *Create a Completion (Chat)*',
    severity: 'high',
  },
];

/** ARC-4: the scenario uses deprecated modules or models. */
export const ARC_4: Policy = {
  code: 'ARC-4',
  title: 'Deprecated module or model',
  category: 'ARC',
  severity: 'low',
  description:
    'A module is a deprecated version or calls a retired model; it may stop working without notice and misses fixes of its successor.',
  rationale:
    'Unsupported components are a reliability and security risk (ISO/IEC 27001 A.8.9 configuration management; NIST SP 800-53 CM-2 baseline configuration).',
  compliance_frameworks: [ref(F.iso27001, 'A.8.9'), ref(F.nist, 'CM-2')],
  examples: {
    avoid: '`{ "module": "http:ActionSendData", "version": 3 }`',
    prefer: '`{ "module": "http:MakeRequest", "version": 4 }`',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const d = DEPRECATIONS.find((x) => x.matches(m));
      if (d)
        findings.push({
          moduleId: m.id,
          reason: `${d.reason}; replace with ${d.replacement}`,
          severity: d.severity,
          evidence: { pointer: `${m.pointer}/module`, value: `${m.type} v${m.version ?? '?'}` },
        });
    }
    if (findings.length === 0) return null;
    return {
      status: findings.some((f) => f.severity === 'high') ? 'fail' : 'warn',
      findings,
      summary: `${findings.length} deprecated module${findings.length === 1 ? '' : 's'}`,
    };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis)
        .slice(0, 10)
        .map((m) => {
          const reason = outcome.findings.find((f) => f.moduleId === m.id)!.reason;
          return `Replace ${moduleRef(m)}: ${reason}. Re-map its fields and re-run the scenario once.`;
        });
      steps.push("Check the app's page in Make for migration notes before switching.");
      return steps;
    },
  },
};
