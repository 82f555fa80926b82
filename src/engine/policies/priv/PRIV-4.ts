/** @module engine/policies/priv/PRIV-4: personal data leaving the scenario's EU zone. */
import type { Finding, Policy } from '../types.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { moduleUrl, urlHost } from '../../blueprint/classify.js';
import { LLM_HOSTS, onCatalogHost } from '../../hosts/llm-hosts.js';
import { findingModules, moduleRef } from '../helpers.js';
import { riskRow } from '../../risk/model.js';
import { sensitivityOf } from '../../risk/sensitivity.js';
import { describeFlows, personalDataSinks, piiPath } from './shared.js';

/** AI apps whose default processing location is outside the EU/EEA (providers' published data-residency terms). */
const NON_EU_APPS = new Set([
  'openai-gpt-3',
  'openai',
  'chatgpt',
  'anthropic-claude',
  'anthropic',
  'claude',
  'perplexity-ai',
  'groq',
  'deepseek',
  'openrouter',
  'xai',
  'grok',
  'replicate',
  'hugging-face',
  'huggingface',
  'elevenlabs',
  'assemblyai',
  'deepgram',
  'stability-ai',
]);
/** LLM API hosts whose provider processes outside the EU/EEA by default (the catalog `engine/hosts/llm-hosts`, with its sources). */
const NON_EU_HOSTS: readonly string[] = LLM_HOSTS.filter((h) => h.outsideEu).map((h) => h.host);

function nonEuRecipient(m: ModuleNode): string | null {
  if (NON_EU_APPS.has(m.app)) return m.app;
  const url = moduleUrl(m);
  const host = url ? urlHost(url) : null;
  return host && NON_EU_HOSTS.some((h) => onCatalogHost(host, h)) ? host : null;
}

/** PRIV-4: an EU-zone scenario sends personal data to a provider that processes it outside the EU. */
export const PRIV_4: Policy = {
  code: 'PRIV-4',
  title: "Personal data transferred outside the scenario's zone",
  category: 'PRIV',
  severity: 'high',
  description:
    'The scenario runs in an EU zone of Make but sends personal data (judged by what it is, as for PRIV-1) to a provider that processes it outside the EU/EEA by default (for example US-hosted AI APIs): an international transfer (risk-model row R17, high).',
  rationale:
    'Transfers of personal data to third countries need a legal basis and safeguards (GDPR Art. 44 ff.: adequacy, SCCs, transfer impact assessment). Keeping an EU zone does not keep the data in the EU if modules send it elsewhere.',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 44'),
    ref(F.gdpr, 'Art. 28'),
    ref(F.iso27001, 'A.5.23'),
    ref(F.soc2, 'P6.1'),
  ],
  examples: {
    avoid: 'Zone `eu1.make.com`, `{{1.email}}` sent to `api.openai.com`.',
    prefer: 'An EU-resident endpoint of the provider, or pseudonymised input.',
  },
  evaluate(analysis) {
    const zone = analysis.graph.settings.zone ?? '';
    if (!/^eu\d/.test(zone)) return null;
    const findings: Finding[] = [];
    for (const s of personalDataSinks(analysis)) {
      const recipient = nonEuRecipient(s.module);
      if (!recipient) continue;
      const risk = riskRow('R17', { sensitivity: sensitivityOf(s.flows.map((f) => f.kind)), impact: 'send' });
      findings.push({
        moduleId: s.module.id,
        reason: `sends personal data (${describeFlows(s.flows)}) from zone ${zone} to ${recipient} (processed outside the EU by default)`,
        severity: risk.severity,
        evidence: { pointer: s.flows[0]!.pointer },
        risk,
        path: piiPath(analysis, s.flows[0]!, s.module, `sends it to ${recipient}, outside the EU`),
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `Personal data transferred outside the EU by ${findings.length} module${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'high',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `For ${moduleRef(m)}, switch to the provider's EU data-residency endpoint if it has one, or remove the personal fields from the request.`,
      );
      steps.push(
        'Otherwise document the transfer: standard contractual clauses with the provider and a transfer impact assessment.',
      );
      return steps;
    },
  },
};
