/**
 * @module engine/policies/priv/PRIV-7: the scenario runs outside the Make zones the organization
 * allows (data residency). Sources: Make help, *Make zones* (a zone, `eu1.make.com`, `us2.make.com`,
 * `eu1.make.celonis.com`, is the region whose data centre runs the scenario and keeps its execution
 * data); corpus FORMAT.md (`metadata.zone`, the `YOUR_MAKE_ZONE` placeholder); GDPR Art. 44.
 */
import type { PolicyOutcome, Policy, StringListParameter } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { paramValue } from '../params.js';

/** A zone entry: a region label (`eu1`) or a whole host (`eu1.make.com`), lower case. */
export const ZONE_PATTERN = '^[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$';

/** `allowed_zones` (issue 17): the Make zones the organization's scenarios may run in; empty = any. */
export const ALLOWED_ZONES: StringListParameter = {
  name: 'allowed_zones',
  type: 'string-list',
  description:
    'Make zones scenarios may run in. An entry without a dot (`eu1`) matches every zone whose first DNS label it is (`eu1.make.com`, `eu1.make.celonis.com`); an entry with dots matches that host exactly. Empty: no restriction.',
  default: [],
  maxItems: 50,
  itemPattern: ZONE_PATTERN,
  itemMaxLength: 253,
};

const HOST = new RegExp(ZONE_PATTERN);

/** True when `zone` (a lower-case host) is in `allowed`: an entry without a dot is a first DNS label, one with dots the whole host. */
export function zoneAllowed(zone: string, allowed: readonly string[]): boolean {
  const label = zone.split('.', 1)[0];
  return allowed.some((entry) => (entry.includes('.') ? entry === zone : entry === label));
}

/** PRIV-7: the blueprint's zone is not among the organization's allowed zones. */
export const PRIV_7: Policy = {
  code: 'PRIV-7',
  title: 'Scenario runs outside the allowed Make zones',
  category: 'PRIV',
  severity: 'high',
  description:
    "The scenario's Make zone (`metadata.zone`) is not one the organization allows (`allowed_zones`), so its runs, execution logs and stored incomplete executions are processed in another region. Reported only when the organization sets `allowed_zones`; a blueprint without a real zone (absent, or the `YOUR_MAKE_ZONE` placeholder) is a low `warn`: its residency cannot be verified from the file.",
  rationale:
    'A Make zone is the data centre that runs the scenario and keeps the data of its executions (Make help, *Make zones*). An organization that must keep personal data in a region (GDPR Art. 44 ff. on transfers to third countries, contractual data-residency commitments) has to run its scenarios there; the zone of an export shows where the scenario ran. GDPR Art. 5(1)(f), ISO/IEC 27001 A.5.23 (cloud services) and NIST SP 800-53 SA-9 (external system services, location of processing) make the choice of region a control.',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 44'),
    ref(F.gdpr, 'Art. 5(1)(f)'),
    ref(F.iso27001, 'A.5.23'),
    ref(F.iso27001, 'A.5.34'),
    ref(F.soc2, 'CC6.7'),
    ref(F.nist, 'SA-9'),
  ],
  examples: {
    avoid: '`allowed_zones: ["eu1", "eu2"]` and a blueprint exported with `"zone": "us2.make.com"`.',
    prefer: 'The scenario rebuilt in an organization of an allowed zone (`"zone": "eu2.make.com"`).',
  },
  parameters: [ALLOWED_ZONES],
  evaluate(analysis, params): PolicyOutcome | null {
    const allowed = paramValue(params, ALLOWED_ZONES);
    if (allowed.length === 0) return null;
    const raw = analysis.graph.settings.zone;
    const zone = raw?.trim().toLowerCase().replace(/\.$/, '') ?? '';
    if (!HOST.test(zone))
      return {
        status: 'warn',
        findings: [],
        severity: 'low',
        summary:
          raw === null
            ? 'The blueprint records no Make zone: residency in the allowed zones cannot be verified'
            : `The Make zone \`${raw.slice(0, 80)}\` is not a zone host: residency in the allowed zones cannot be verified`,
        evidence: raw === null ? { pointer: '/metadata' } : { pointer: '/metadata/zone', value: raw.slice(0, 80) },
      };
    if (zoneAllowed(zone, allowed)) return null;
    return {
      status: 'fail',
      findings: [],
      summary: `The scenario runs in zone ${zone}, outside the allowed zones (${allowed.join(', ')})`,
      evidence: { pointer: '/metadata/zone', value: zone },
    };
  },
  remediation: {
    effort: 'high',
    steps(outcome) {
      if (outcome.status === 'warn')
        return [
          "Re-export the blueprint from the scenario as it runs, so that `metadata.zone` records the scenario's real zone.",
          'If the scenario does run in an allowed zone, no change is needed; otherwise move it as below.',
        ];
      return [
        `Recreate the scenario in a team of an organization hosted in an allowed zone (Make zones are chosen per organization and cannot be changed for an existing one): import this blueprint there.`,
        'Re-create its connections, webhooks, data stores and keys in that organization, then switch callers to the new webhook URLs.',
        'Turn the old scenario off and delete its stored incomplete executions and logs once the new one runs.',
      ];
    },
  },
};
