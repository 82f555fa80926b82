/** @module engine/policies/ops/OPS-1: failures nobody hears about. */
import type { Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { Json, ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { PUBLISHING_APPS } from '../ai/shared.js';
import { deliveryOf } from '../ai/audience.js';
import { inAnyErrorRoute } from '../di/shared.js';

/** Apps that can alert a person or an on-call system from an error route. */
const ALERT_APPS = new Set([
  ...PUBLISHING_APPS,
  'pagerduty',
  'opsgenie',
  'http',
  'datadog',
  'sentry',
  'betteruptime',
  'statuspage',
]);

/**
 * What a module that changes something is, for OPS-1: `owner`, a notification to the owner or the
 * team (audience `internal` of `ai/audience.ts`: the connection's own account, iOS notifications,
 * Slack or Teams, a placeholder recipient); `fixed`, a message to recipients fixed at design time
 * (no recipient mapped from the data: a digest to one chat or mailbox); `change`, anything else
 * (records, files, deletes, posts, replies, messages to recipients taken from the data).
 */
function changeKind(analysis: Analysis, m: ModuleNode): 'owner' | 'fixed' | 'change' {
  const send = classify(m).send;
  if (!send || send.channel === null || send.channel === 'post' || send.reply) return 'change';
  if (deliveryOf(analysis, m, [])?.audience === 'internal') return 'owner';
  return send.recipients.some((k) => leaves(m.mapper?.[k]).some((v) => v.includes('{{'))) ? 'change' : 'fixed';
}

/** String leaves of a recipient field (a string, a list, `{ address, name }` objects). */
function leaves(v: Json | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(leaves);
  return v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [];
}

/** OPS-1: the scenario changes data and no error route notifies anyone. */
export const OPS_1: Policy = {
  code: 'OPS-1',
  title: 'No failure notification',
  category: 'OPS',
  severity: 'medium',
  description:
    'The scenario changes data in other systems, but none of its error routes notifies a person or an alerting system, so failures are found late, by the people affected. A notification to the owner or the team (own account, iOS, Slack) is not a change; a scenario that only sends messages to fixed recipients is reported low.',
  rationale:
    'Operational failures must be detected and reported (SOC 2 CC7.2 and CC7.3; NIST SP 800-53 IR-6 incident reporting, SI-4 monitoring; ISO/IEC 27001 A.8.16).',
  compliance_frameworks: [ref(F.soc2, 'CC7.2'), ref(F.soc2, 'CC7.3'), ref(F.nist, 'IR-6'), ref(F.iso27001, 'A.8.16')],
  examples: {
    avoid: 'Error routes that only `Break` or `Ignore`.',
    prefer: 'An error route with `slack:CreateMessage` to the on-call channel, then `builtin:Break`.',
  },
  evaluate(analysis) {
    // A notification to the owner is not a change: when it fails, its reader is the one who notices.
    const writes = analysis
      .writers()
      .filter((m) => !inAnyErrorRoute(analysis.graph.byId, m))
      .map((m) => changeKind(analysis, m))
      .filter((k) => k !== 'owner');
    if (writes.length === 0) return null;
    const notifies = analysis.graph.modules.some(
      (m) => classify(m).role === 'write' && ALERT_APPS.has(m.app) && inAnyErrorRoute(analysis.graph.byId, m),
    );
    if (notifies) return null;
    const n = writes.length;
    // Only messages to fixed recipients: a failed run loses one notification, nothing is left out of step (low).
    if (writes.every((k) => k === 'fixed')) {
      return {
        status: 'warn',
        findings: [],
        severity: 'low',
        summary: `No error route notifies anyone; the scenario only sends ${n} message${n === 1 ? '' : 's'} to fixed recipients`,
        evidence: { pointer: '/flow' },
      };
    }
    return {
      status: 'warn',
      findings: [],
      summary: `No error route notifies anyone, although ${n} module${n === 1 ? '' : 's'} change data`,
      evidence: { pointer: '/flow' },
    };
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
