/** @module engine/policies/di/DI-3: incomplete-executions storage disabled. */
import type { Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { changeKind } from '../ops/change-kind.js';

/**
 * DI-3: with `dlq` off, a failed run cannot be resumed. Medium when the scenario changes data, low
 * otherwise; only an observation (info) for a read-only scenario that answers its caller (webhook
 * response, a scenario's *Return output*): the caller waits for the answer, a stored run replayed
 * later answers no one and changes nothing (make `joseph19820124`, `veracitylife-calendar-availability-check`,
 * make-extra `20mss012`). A message to the owner or to recipients fixed at design time (an alert to the
 * operator's mailbox: make-more `raulvallejo-agent-firewall` 8) is not a data change here (`changeKind`).
 */
export const DI_3: Policy = {
  code: 'DI-3',
  title: 'Incomplete executions are not stored',
  category: 'DI',
  severity: 'medium',
  description:
    'The scenario setting **Allow storing of incomplete executions** is off, so a run that fails midway is lost instead of being kept for resolution and retry. For a scenario that changes no data (alerts to the owner or to fixed recipients aside) and answers its caller directly (webhook response) it is only an observation: a replayed run could answer no one.',
  rationale:
    "Stored incomplete executions are Make's recovery mechanism: they keep the failed bundle so it can be retried after the cause is fixed (SOC 2 A1.2 recovery infrastructure; NIST SP 800-53 CP-10; ISO/IEC 27001 A.8.13).",
  compliance_frameworks: [ref(F.soc2, 'A1.2'), ref(F.nist, 'CP-10'), ref(F.iso27001, 'A.8.13')],
  examples: {
    avoid: '`"metadata": { "scenario": { "dlq": false } }`',
    prefer: '`"metadata": { "scenario": { "dlq": true } }`',
  },
  evaluate(analysis) {
    if (analysis.graph.settings.dlq === true) return null;
    const writers = analysis.writers();
    const writes = writers.length;
    // A run that changes nothing and answers its caller has nothing to recover: a replay later cannot answer that call.
    // Alerts to the owner or to fixed recipients (the operator's mailbox) are not data changes.
    const alertsOnly = writers.every((m) => changeKind(analysis, m) !== 'change');
    if (alertsOnly && analysis.graph.modules.some((m) => classify(m).effect === 'respond')) {
      return {
        status: 'warn',
        findings: [],
        severity: 'info',
        summary: `Incomplete executions are not stored; the scenario changes no data${writes > 0 ? ' (it only alerts fixed recipients)' : ''} and answers its caller directly, so a stored run would have nothing to recover`,
        evidence: { pointer: '/metadata/scenario/dlq', value: String(analysis.graph.settings.dlq) },
      };
    }
    return {
      status: writes > 0 ? 'fail' : 'warn',
      findings: [],
      severity: writes > 0 ? 'medium' : 'low',
      summary:
        writes > 0
          ? `Incomplete executions are not stored although ${writes} module${writes === 1 ? '' : 's'} change data`
          : 'Incomplete executions are not stored',
      evidence: { pointer: '/metadata/scenario/dlq', value: String(analysis.graph.settings.dlq) },
    };
  },
  remediation: {
    effort: 'low',
    steps() {
      return [
        'Open the scenario, click **Scenario settings** (the gear icon) and enable **Allow storing of incomplete executions**.',
        'Add **Break** error handlers to the modules that change data so failed bundles are stored and retried automatically.',
        'Check **Incomplete executions** regularly (or alert on them) and resolve or delete stored runs.',
      ];
    },
  },
};
