/** @module engine/policies/di/DI-9: HTTP error statuses treated as success. */
import type { ModuleNode } from '../../blueprint/types.js';
import type { Analysis } from '../../analysis.js';
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { httpMethod, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { CHAT_WEBHOOK_HOST } from '../../hosts/chat-webhook-hosts.js';
import { findingModules, moduleRef } from '../helpers.js';
import { inAnyErrorRoute, outputRead } from './shared.js';

/**
 * DI-9: `handleErrors: false` / `stopOnHttpError: false` turn 4xx/5xx answers into successful
 * bundles. Not reported when a later filter tests the module's `statusCode` (the scenario routes on
 * the status itself: make `amrit-dash-update-apps-script-code` 3/4). Low when nothing reads the
 * response and the call only notifies: it sits in an error route, runs only after another call's
 * status check (an alert: `amrit-dash-update-apps-script-code` 11/21), or posts to a team-chat
 * webhook; an error status then loses that message and corrupts nothing. Low too for a read gated on
 * another call's status check (`followUpRead`). Medium otherwise.
 */
export const DI_9: Policy = {
  code: 'DI-9',
  title: 'HTTP errors treated as success',
  category: 'DI',
  severity: 'medium',
  description:
    "An HTTP module is set not to treat 4xx/5xx responses as errors, so a failed call produces a normal bundle, error handlers never run, and later modules work on an error page. Not reported when a later filter checks the status code; low for a notification whose response nothing reads, and for a read that runs only after another call's status was checked.",
  rationale:
    'Failures that look like successes corrupt downstream data silently (CWE-252 unchecked return value; NIST SP 800-53 SI-11 error handling; SOC 2 PI1.3).',
  compliance_frameworks: [ref(F.nist, 'SI-11'), ref(F.soc2, 'PI1.3')],
  examples: {
    avoid: '`"parameters": { "handleErrors": false }` or `"stopOnHttpError": false`',
    prefer: '`"handleErrors": true` (or `stopOnHttpError: true`) with an error handler.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (m.app !== 'http') continue;
      const [reason, pointer] =
        m.parameters?.['handleErrors'] === false
          ? [
              '`parameters.handleErrors` is false: 4xx/5xx responses are not errors',
              `${m.pointer}/parameters/handleErrors`,
            ]
          : m.mapper?.['stopOnHttpError'] === false
            ? [
                '`mapper.stopOnHttpError` is false: 4xx/5xx responses are not errors',
                `${m.pointer}/mapper/stopOnHttpError`,
              ]
            : [null, ''];
      if (reason === null || statusChecked(analysis, m)) continue;
      const notice = !outputRead(analysis, m) && notifies(analysis, m);
      const after = notice ? null : followUpRead(analysis, m);
      findings.push({
        moduleId: m.id,
        reason: notice
          ? `${reason}; nothing reads the response of this notification, so an error status only loses it`
          : after !== null
            ? `${reason}; it only reads, after the status of module ${after} was checked: an error status garbles what is reported about that call, it changes no data`
            : reason,
        ...(notice || after !== null ? { severity: 'low' as const } : {}),
        evidence: { pointer, value: 'false' },
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} HTTP module${findings.length === 1 ? '' : 's'} treating error statuses as success`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) => `In ${moduleRef(m)}, set **Evaluate all states as errors (except for 2xx and 3xx)** to *Yes*.`,
      );
      steps.push(
        'Add an error handler to these modules for the statuses you expect (for example retry 429 and 5xx with **Break**).',
      );
      return steps;
    },
  },
};

/** True when a later module's filter tests this module's `statusCode`: the scenario routes on the status. */
function statusChecked(analysis: Analysis, m: ModuleNode): boolean {
  const flow = analysis.dataflow();
  return flow
    .readersOf(m.id)
    .some((id) => flow.filterRefsOf(id).some((r) => r.moduleId === m.id && r.path.startsWith('statusCode')));
}

/** Ids of the other calls whose `statusCode` the module's own filter tests (it runs only after that check). */
function checkedCalls(analysis: Analysis, m: ModuleNode): string[] {
  return analysis
    .dataflow()
    .filterRefsOf(m.id)
    .filter((r) => r.moduleId !== m.id && r.path.startsWith('statusCode'))
    .map((r) => r.moduleId);
}

/**
 * The call whose status gates a read (`GET`/`HEAD`, RFC 9110 §9.2.1 safe methods): the read runs only
 * once the scenario has checked how that call went (make-more `adityaxlego` 265 re-reads an item after
 * filter "Data Written" tested 201's status), so it reports on a change already confirmed; an error
 * page in its answer garbles that report and changes nothing. `null` when the module writes or is not gated.
 */
function followUpRead(analysis: Analysis, m: ModuleNode): string | null {
  const method = httpMethod(m);
  if (method !== 'GET' && method !== 'HEAD') return null;
  return checkedCalls(analysis, m)[0] ?? null;
}

/** An alert or a message: in an error route, gated on another call's `statusCode`, or posted to a team-chat webhook. */
function notifies(analysis: Analysis, m: ModuleNode): boolean {
  if (inAnyErrorRoute(analysis.graph.byId, m)) return true;
  if (checkedCalls(analysis, m).length > 0) return true;
  const host = urlHost(moduleUrl(m) ?? '');
  return host !== null && CHAT_WEBHOOK_HOST.test(host);
}
