/** @module engine/policies/arc/ARC-5: hard-coded Make environment identifiers. */
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { urlHost } from '../../blueprint/classify.js';
import { MAKE_API_HOST } from '../../hosts/make-hosts.js';
import { fieldPath, findingModules, moduleRef } from '../helpers.js';

const ENV_ID =
  /(?:teamId|organizationId|scenarioId|team_id|organization_id)=\d+|\/(?:scenarios|teams|organizations|hooks|data-stores|connections)\/\d+/;

/** ARC-5: the blueprint addresses one Make environment by literal ids, so it cannot be promoted between environments. */
export const ARC_5: Policy = {
  code: 'ARC-5',
  title: 'Hard-coded environment identifiers',
  category: 'ARC',
  severity: 'low',
  description:
    'A module calls the Make API with literal team, organization, scenario, hook or data-store ids, tying the blueprint to one environment: promoting it from development to production silently keeps pointing at the old one.',
  rationale:
    'Environment-specific values belong in configuration (scenario inputs, custom variables), so the same reviewed artefact runs in every environment (ISO/IEC 27001 A.8.32 change management; NIST SP 800-53 CM-6 configuration settings).',
  compliance_frameworks: [ref(F.iso27001, 'A.8.32'), ref(F.nist, 'CM-6')],
  examples: {
    avoid: '`"url": "https://eu1.make.com/api/v2/scenarios/2345678/run?teamId=12345"`',
    prefer: '`"url": "https://{{var.organization.zone}}/api/v2/scenarios/{{var.team.reportScenarioId}}/run"`',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const leaf of analysis.strings()) {
      const host = urlHost(leaf.value);
      if (!host || !MAKE_API_HOST.test(host) || !ENV_ID.test(leaf.value)) continue;
      findings.push({
        moduleId: leaf.module.id,
        reason: `\`${fieldPath(leaf.module, leaf.pointer)}\` addresses Make by literal environment ids`,
        evidence: { pointer: leaf.pointer, value: leaf.value.slice(0, 200) },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} hard-coded environment identifier${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) => `In ${moduleRef(m)}, replace the literal ids with **custom variables** or scenario inputs.`,
      );
      steps.push('Define those variables per environment (team or organization variables).');
      return steps;
    },
  },
};
