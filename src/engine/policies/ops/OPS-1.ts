/** @module engine/policies/ops/OPS-1: failures nobody hears about. */
import type { Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { actionWords, classify } from '../../blueprint/classify.js';
import { downstreamOf } from '../helpers.js';
import { runsPerItem } from '../di/shared.js';
import { PUBLISHING_APPS } from '../ai/shared.js';
import { inAnyErrorRoute } from '../di/shared.js';
import { changeKind } from './change-kind.js';

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
 * True when the scenario starts by reading on a schedule (its first module is a read, not a trigger
 * that takes an event: a webhook, a watched app, a subscenario's inputs): a failed run consumes no
 * event, the data is still where it was read.
 */
function readsOnSchedule(analysis: Analysis): boolean {
  return analysis.trigger === 'schedule' && analysis.first !== undefined && classify(analysis.first).role === 'read';
}

/** First verbs of actions that add a new row or record (`addRow`, `createARow`, `ActionCreateRecord`, `AddRecord`). */
const APPEND_VERBS: ReadonlySet<string> = new Set(['add', 'create', 'insert', 'append']);

/**
 * True when `m` appends new rows or records and no other change follows it: a record write
 * (not a message, post or delete) whose action's verb adds (`APPEND_VERBS`), outside any per-item
 * iteration, with no change after it on its path. A scheduled run that fails there loses entries
 * (log rows of data read on the schedule) and leaves nothing half-done that a later step expected
 * (make-more `ancestor9-3` appends one weather row per run, on one of two routes).
 */
function appendsAlone(analysis: Analysis, m: ModuleNode, changes: readonly ModuleNode[]): boolean {
  const cls = classify(m);
  if (cls.effect !== 'write' || cls.http) return false;
  const verb = actionWords(m.action).find((w) => w !== 'action');
  if (verb === undefined || !APPEND_VERBS.has(verb) || runsPerItem(analysis, m)) return false;
  return !downstreamOf(m, analysis).some((x) => changes.includes(x));
}

/** OPS-1: the scenario changes data and no error route notifies anyone. */
export const OPS_1: Policy = {
  code: 'OPS-1',
  title: 'No failure notification',
  category: 'OPS',
  severity: 'medium',
  description:
    'The scenario changes data in other systems, but none of its error routes notifies a person or an alerting system, so failures are found late, by the people affected. A notification to the owner or the team (own account, iOS, Slack) is not a change; a scenario that only sends messages to fixed recipients, or that reads on a schedule and only appends new records with no change after them, is reported low.',
  rationale:
    'Operational failures must be detected and reported (SOC 2 CC7.2 and CC7.3; NIST SP 800-53 IR-6 incident reporting, SI-4 monitoring; ISO/IEC 27001 A.8.16).',
  compliance_frameworks: [ref(F.soc2, 'CC7.2'), ref(F.soc2, 'CC7.3'), ref(F.nist, 'IR-6'), ref(F.iso27001, 'A.8.16')],
  examples: {
    avoid: 'Error routes that only `Break` or `Ignore`.',
    prefer: 'An error route with `slack:CreateMessage` to the on-call channel, then `builtin:Break`.',
  },
  evaluate(analysis) {
    // A notification to the owner is not a change: when it fails, its reader is the one who notices.
    const changes = analysis
      .writers()
      .filter((m) => !inAnyErrorRoute(analysis.graph.byId, m) && changeKind(analysis, m) !== 'owner');
    const writes = changes.map((m) => changeKind(analysis, m));
    if (writes.length === 0) return null;
    const notifies = analysis.graph.modules.some(
      (m) => classify(m).role === 'write' && ALERT_APPS.has(m.app) && inAnyErrorRoute(analysis.graph.byId, m),
    );
    if (notifies) return null;
    const n = writes.length;
    // A scheduled read whose only changes append new records: a failed run loses entries, nothing is left half-done (low).
    if (readsOnSchedule(analysis) && changes.every((m) => appendsAlone(analysis, m, changes))) {
      return {
        status: 'warn',
        findings: [],
        severity: 'low',
        summary: `No error route notifies anyone; the scenario reads on a schedule and only appends new records (${n} module${n === 1 ? '' : 's'}) with no change after them: a failed run loses entries and leaves nothing half-done`,
        evidence: { pointer: '/flow' },
      };
    }
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
