/** @module engine/policies/priv/PRIV-5: personal data typed into the blueprint itself. */
import type { Finding, Policy } from '../types.js';
import type { Json } from '../../blueprint/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findEmails } from '../../pii.js';
import { fieldPath, moduleRef } from '../helpers.js';

function redactEmail(text: string, spans: readonly [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [s, e] of spans) {
    const addr = text.slice(s, e);
    const domain = addr.slice(addr.indexOf('@'));
    out += `${text.slice(at, s)}${addr[0]}***${domain}`;
    at = e;
  }
  return (out + text.slice(at)).slice(0, 200);
}

/** PRIV-5: e-mail addresses in module fields and in connection labels travel with every export. */
export const PRIV_5: Policy = {
  code: 'PRIV-5',
  title: 'Personal data embedded in the blueprint',
  category: 'PRIV',
  severity: 'low',
  subject: 'artefact',
  description:
    "The blueprint contains literal e-mail addresses, in module fields or in the labels Make stores for connections (which usually name the account's e-mail), so every export and copy of the blueprint discloses them.",
  rationale:
    'Blueprints are shared, versioned and published; personal data in them is processing without a purpose (GDPR Art. 5(1)(c) data minimisation, Art. 25 by design).',
  compliance_frameworks: [ref(F.gdpr, 'Art. 5(1)(c)'), ref(F.gdpr, 'Art. 25'), ref(F.iso27001, 'A.8.11')],
  examples: {
    avoid: '`"restore": { "parameters": { "__IMTCONN__": { "label": "Google (jane.doe@company.com)" } } }`',
    prefer: 'Strip `metadata.restore` labels before sharing; map recipients from a data store or variables.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const leaf of analysis.strings()) {
      const spans = findEmails(leaf.value);
      if (spans.length > 0)
        findings.push({
          moduleId: leaf.module.id,
          reason: `\`${fieldPath(leaf.module, leaf.pointer)}\` contains an e-mail address`,
          evidence: { pointer: leaf.pointer, value: redactEmail(leaf.value, spans) },
        });
    }
    for (const m of analysis.graph.modules) {
      const restore = m.metadata?.['restore'];
      const params =
        restore && typeof restore === 'object' && !Array.isArray(restore)
          ? (restore as Record<string, Json>)['parameters']
          : undefined;
      if (!params || typeof params !== 'object' || Array.isArray(params)) continue;
      for (const [name, value] of Object.entries(params)) {
        const label = value && typeof value === 'object' && !Array.isArray(value) ? value['label'] : undefined;
        if (typeof label !== 'string') continue;
        const spans = findEmails(label);
        if (spans.length > 0)
          findings.push({
            moduleId: m.id,
            reason: `the label of connection \`${name}\` names an account e-mail`,
            evidence: {
              pointer: `${m.pointer}/metadata/restore/parameters/${name}/label`,
              value: redactEmail(label, spans),
            },
          });
      }
    }
    return findings.length === 0
      ? null
      : {
          status: 'warn',
          findings,
          summary: `${findings.length} e-mail address${findings.length === 1 ? '' : 'es'} embedded in the blueprint`,
        };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = [
        'Before sharing or committing the blueprint, remove `metadata.restore` connection labels (they are UI state and not needed to import).',
      ];
      const fieldModules = [
        ...new Set(
          outcome.findings.filter((f) => !f.evidence?.pointer.includes('/metadata/restore/')).map((f) => f.moduleId),
        ),
      ];
      for (const id of fieldModules.slice(0, 10))
        steps.push(
          `In ${moduleRef(analysis.module(id))}, read the address from a data store, a variable or the triggering data instead of typing it.`,
        );
      return steps;
    },
  },
};
