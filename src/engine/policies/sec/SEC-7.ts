/**
 * @module engine/policies/sec/SEC-7: code execution fed with untrusted input.
 *
 * What runs is the module's program (`program.ts`). General-purpose code fed untrusted input is
 * reported (high); input spliced into the code's own source text is SEC-13's (code injection), not
 * repeated here. A pattern (a Text parser's or a code suite's regular expression) the author wrote
 * as a literal is not code on untrusted input, whatever text it reads: it decides only what is
 * matched (issue 32). A pattern built from untrusted data is reported low: the data changes what is
 * matched or makes it backtrack (CWE-625 permissive regular expression, CWE-1333 ReDoS), never what
 * else runs.
 */
import type { Finding, Policy } from '../types.js';
import type { ModuleRef } from '../../dataflow.js';
import type { EvidenceStep } from '../../risk/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { findingModules, moduleRef } from '../helpers.js';
import { isProgramField, programOf } from './program.js';

/** SEC-7: a code module runs with untrusted data as its input, or a pattern is built from it. */
export const SEC_7: Policy = {
  code: 'SEC-7',
  title: 'Code module runs on untrusted input',
  category: 'SEC',
  severity: 'high',
  description:
    "A custom-code module (JavaScript, cloud function, code app) receives untrusted data (a webhook payload, an inbound message, a fetched page) as its input, so an outside party controls the input of code that runs with the scenario's access. A regular expression the author wrote as a literal is not code: a text parser over untrusted text is not reported; a pattern built from untrusted data is (low).",
  rationale:
    'Custom code is the one place where injected input can change behaviour (CWE-94 code injection, CWE-20 improper input validation). Validate and narrow inputs before they reach code (NIST SP 800-53 SI-10; PCI DSS v4.0 6.2.4). A fixed pattern decides only what is matched; a pattern taken from data can be made to match something else or to backtrack without end (CWE-625, CWE-1333). Values spliced into the source text itself are code injection, reported by SEC-13.',
  compliance_frameworks: [ref(F.nist, 'SI-10'), ref(F.pci, '6.2.4'), ref(F.iso27001, 'A.8.28'), ref(F.soc2, 'CC6.6')],
  examples: {
    avoid:
      'A code module whose `input` is `{{1.body}}` from a webhook, or a Text parser whose `pattern` is `{{1.filter}}`.',
    prefer:
      'Validate the payload against a data structure and pass only typed, expected fields to the code; write patterns as literals.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      const kind = programOf(m);
      if (kind === null) continue;
      // Code: its inputs, not its source text (SEC-13). Pattern: only the pattern itself.
      const refs = df.untrustedInputs(m.id).filter((r) => isProgramField(kind, r.fieldName) === (kind === 'pattern'));
      if (refs.length === 0) continue;
      const source = df.untrustedSourceOf(refs[0]!.moduleId)!;
      const origin = df.untrustedOriginOf(refs[0]!.moduleId);
      const sink: EvidenceStep = { moduleId: m.id, role: 'sink', note: kind === 'code' ? 'custom code' : 'pattern' };
      const path: EvidenceStep[] =
        origin !== null && origin !== m.id ? [{ moduleId: origin, role: 'source', note: source.label }, sink] : [sink];
      const evidence = { pointer: refs[0]!.pointer };
      findings.push(
        kind === 'code'
          ? { moduleId: m.id, reason: `runs custom code on ${source.label} (${names(refs)})`, evidence, path }
          : {
              moduleId: m.id,
              reason: `builds its pattern from ${source.label} (${names(refs)}): the data decides what is matched`,
              severity: 'low',
              evidence,
              path,
            },
      );
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `${findings.length} code or pattern module${findings.length === 1 ? '' : 's'} fed with untrusted data`,
        };
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      return [
        'Define a **data structure** on the webhook so only expected, typed fields are accepted.',
        ...findingModules(outcome, analysis).map(
          (m) =>
            `Pass ${moduleRef(m)} only the specific fields it needs, validated by a filter (type, length, allowed values); never evaluate payload text as code.`,
        ),
      ];
    },
  },
};

/** Up to three references, as `` `1.body`, `1.name` ``. */
function names(refs: readonly ModuleRef[]): string {
  return refs
    .slice(0, 3)
    .map((r) => `\`${r.moduleId}.${r.path}\``)
    .join(', ');
}
