/** @module engine/policies/ops/OPS-1: failures nobody hears about. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { PUBLISHING_APPS } from '../ai/shared.js';

/** Apps that can alert a person or an on-call system from an error route. */
const ALERT_APPS = new Set([...PUBLISHING_APPS, 'pagerduty', 'opsgenie', 'http', 'datadog', 'sentry', 'betteruptime', 'statuspage']);

/** OPS-1: the scenario changes data and no error route notifies anyone. */
export const OPS_1: Policy = {
  code: 'OPS-1',
  title: 'No failure notification',
  category: 'OPS',
  severity: 'medium',
  description: 'The scenario changes data in other systems, but none of its error routes notifies a person or an alerting system, so failures are found late, by the people affected.',
  rationale: 'Operational failures must be detected and reported (SOC 2 CC7.2 and CC7.3; NIST SP 800-53 IR-6 incident reporting, SI-4 monitoring; ISO/IEC 27001 A.8.16).',
  compliance_frameworks: [ref(F.soc2, 'CC7.2'), ref(F.soc2, 'CC7.3'), ref(F.nist, 'IR-6'), ref(F.iso27001, 'A.8.16')],
  examples: { avoid: 'Error routes that only `Break` or `Ignore`.', prefer: 'An error route with `slack:CreateMessage` to the on-call channel, then `builtin:Break`.' },
  evaluate(analysis) {
    const writes = analysis.writers().filter((m) => m.container !== 'onerror');
    if (writes.length === 0) return null;
    const notifies = analysis.graph.modules.some((m) => m.container === 'onerror' && classify(m).role === 'write' && ALERT_APPS.has(m.app));
    if (notifies) return null;
    return { status: 'warn', findings: [], summary: `No error route notifies anyone, although ${writes.length} module${writes.length === 1 ? '' : 's'} change data`, evidence: { pointer: '/flow' } };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Add an error route to the modules that change data, starting with a notification (Slack, Teams, e-mail or an HTTP call to your alerting system) that includes `{{error.message}}` and the execution link.',
        'End the route with **Break** so the run is kept for retry.',
        'Also enable e-mail notifications for failed runs in your Make profile or team settings.',
      ];
    },
  },
};
