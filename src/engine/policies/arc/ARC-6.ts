/** @module engine/policies/arc/ARC-6: unconfigured or placeholder modules. */
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/**
 * The route a slot fills on its own, when every module of that route is an empty slot: an unfinished
 * branch that does nothing (make `luxisoft-analizar-imagen`, router "APP" route 2), not a broken step
 * of a flow that runs. Reported low; a slot in a flow that runs stays medium.
 */
function emptyRoute(analysis: Analysis, m: ModuleNode): string | null {
  if (m.container !== 'route' || m.parentId === null || m.routeIndex === null) return null;
  const router = analysis.module(m.parentId);
  const route = router.routes[m.routeIndex];
  if (!route || !route.moduleIds.every((id) => analysis.module(id).type === 'placeholder:Placeholder')) return null;
  return `route ${m.routeIndex + 1} of router ${router.id}${router.label ? ` ("${router.label}")` : ''}`;
}

/** ARC-6: the scenario contains empty slots or modules without any configuration. */
export const ARC_6: Policy = {
  code: 'ARC-6',
  title: 'Unconfigured module',
  category: 'ARC',
  severity: 'medium',
  description:
    'The scenario contains an empty module slot (`placeholder:Placeholder`) or a module exported without parameters or mapping, so it cannot run as exported or its behaviour depends on values nobody reviewed.',
  rationale:
    'An artefact that does not match what runs cannot be reviewed (SOC 2 CC8.1; ISO/IEC 27001 A.8.9 configuration management).',
  compliance_frameworks: [ref(F.soc2, 'CC8.1'), ref(F.iso27001, 'A.8.9')],
  examples: {
    avoid: '`{ "id": null, "module": "placeholder:Placeholder" }`',
    prefer: 'Remove empty slots; configure every module before exporting.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const cls = classify(m);
      if (m.type === 'placeholder:Placeholder') {
        const route = emptyRoute(analysis, m);
        findings.push(
          route === null
            ? { moduleId: m.id, reason: 'empty module slot', evidence: { pointer: m.pointer } }
            : {
                moduleId: m.id,
                reason: `empty module slot, all of ${route}: an unfinished branch that does nothing`,
                severity: 'low',
                evidence: { pointer: m.pointer },
              },
        );
      } else if (m.parameters === null && m.mapper === null && cls.role !== 'flow' && cls.role !== 'directive')
        findings.push({
          moduleId: m.id,
          reason: 'exported without parameters or mapping',
          evidence: { pointer: m.pointer },
        });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} unconfigured module${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      return findingModules(outcome, analysis).map((m) =>
        m.type === 'placeholder:Placeholder'
          ? `Delete the empty slot ${moduleRef(m)} or replace it with the intended module.`
          : `Configure ${moduleRef(m)} (connection and fields) and export the blueprint again.`,
      );
    },
  },
};
