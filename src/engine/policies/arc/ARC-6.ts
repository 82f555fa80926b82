/** @module engine/policies/arc/ARC-6: unconfigured or placeholder modules. */
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { JsonObject, ModuleNode } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { findingModules, moduleRef } from '../helpers.js';

/**
 * The route a slot fills on its own, when every module of that route is an empty slot: an unfinished
 * branch that does nothing (make `luxisoft-analizar-imagen`, router "APP" route 2).
 */
function emptyRoute(analysis: Analysis, m: ModuleNode): string | null {
  if (m.container !== 'route' || m.parentId === null || m.routeIndex === null) return null;
  const router = analysis.module(m.parentId);
  const route = router.routes[m.routeIndex];
  if (!route || !route.moduleIds.every((id) => analysis.module(id).type === 'placeholder:Placeholder')) return null;
  return `route ${m.routeIndex + 1} of router ${router.id}${router.label ? ` ("${router.label}")` : ''}`;
}

/** True for the first module of the top-level flow: where the scenario's trigger (its start) belongs. */
const atStart = (m: ModuleNode): boolean => m.container === 'flow' && m.parentId === null && m.index === 0;

/** True for an absent or empty settings object (`null`, `{}`). */
const unset = (o: JsonObject | null): boolean => o === null || Object.keys(o).length === 0;

/**
 * What an empty slot leaves undone. An empty slot has no app and no action: it does nothing, so in a
 * flow it is an unfinished step (hygiene, low), whether it fills a route alone or heads configured
 * modules (make-more `dexter0013` 80/81). Only where the trigger belongs (the first module of the
 * scenario) does it leave the flow without a start: medium (make `bicced-send-sol-and-eth` flow[0]).
 */
function slotFinding(analysis: Analysis, m: ModuleNode): Finding {
  if (atStart(m))
    return {
      moduleId: m.id,
      reason: 'empty module slot where the trigger belongs: the scenario has no start',
      evidence: { pointer: m.pointer },
    };
  const route = emptyRoute(analysis, m);
  return {
    moduleId: m.id,
    reason:
      route === null
        ? 'empty module slot: an unfinished step that does nothing'
        : `empty module slot, all of ${route}: an unfinished branch that does nothing`,
    severity: 'low',
    evidence: { pointer: m.pointer },
  };
}

/**
 * A module exported without any setting. Absent `parameters` and `mapper` on any module but a router or
 * an error directive (which take none); empty ones (`{}`) on a module of an app outside Make (an
 * external service needs at least a connection or a field to call it: make-more `ancestor9-5` 1, an
 * OpenAI completion with `{}` and `{}`). Make's own tools may take no settings (a subscenario start).
 */
function unconfiguredModule(m: ModuleNode): boolean {
  const cls = classify(m);
  if (cls.role === 'flow' || cls.role === 'directive') return false;
  if (m.parameters === null && m.mapper === null) return true;
  return cls.external && unset(m.parameters) && unset(m.mapper);
}

/** ARC-6: the scenario contains empty slots or modules without any configuration. */
export const ARC_6: Policy = {
  code: 'ARC-6',
  title: 'Unconfigured module',
  category: 'ARC',
  severity: 'medium',
  description:
    'The scenario contains an empty module slot (`placeholder:Placeholder`) or a module exported without parameters or mapping (or, for an app outside Make, with both empty), so it cannot run as exported or its behaviour depends on values nobody reviewed. An empty slot does nothing: it is reported low, except where the trigger belongs, which leaves the scenario without a start.',
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
      if (m.type === 'placeholder:Placeholder') findings.push(slotFinding(analysis, m));
      else if (unconfiguredModule(m))
        findings.push({
          moduleId: m.id,
          reason:
            m.parameters === null && m.mapper === null
              ? 'exported without parameters or mapping'
              : 'exported with empty parameters and mapping: no connection and no field set',
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
