/**
 * @module engine/policies/sec/SEC-6: server-side request forgery through a URL taken from untrusted
 * input or from an AI model's output.
 *
 * Sources: CWE-918 (Server-Side Request Forgery); OWASP API Security Top 10 2023, API7:2023
 * "Server Side Request Forgery" (a URL supplied by the client or by a third party is fetched without
 * validation); OWASP SSRF Prevention Cheat Sheet (allow-list the destination host, never the path);
 * OWASP Top 10 for LLM Applications 2025, LLM05 "Improper Output Handling" (model output used as a
 * URL). Make documentation, HTTP app: the `url` field of *Make a request* (`http:ActionSendData`,
 * `http:MakeRequest`, `http:ActionGetFile`...) is mapped like any other field.
 */
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import type { Analysis } from '../../analysis.js';
import type { DataFlow } from '../../dataflow.js';
import type { FieldRef } from '../../blueprint/expressions.js';
import type { EvidenceStep } from '../../risk/types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { failWith, findingModules, moduleRef } from '../helpers.js';
import { requestStakes } from './forged-request.js';
import { hostEnd, mappedUrlPart, modelAuthors, urlField } from './request-url.js';

/** Who chooses the address: input an outside party sends in, a model steered by such input, or a model alone. */
type Controller = 'untrusted' | 'ai-untrusted' | 'ai';

/**
 * Severity by who chooses the address and what the request can do once it is forged
 * (`forged-request.ts`: it carries a credential, sends data, or its response drives effects).
 * OWASP API7:2023: control of the host lets a caller reach internal services or exfiltrate; a path
 * or query value on a fixed host is not reported. A model steered by untrusted input is a forger
 * too (indirect prompt injection, OWASP LLM01:2025). A model alone chooses a URL by mistake
 * (hallucinated or content-injected), not by attack: medium whatever the request carries.
 */
const SEVERITY: Readonly<Record<Controller, Readonly<Record<'stakes' | 'none', Severity>>>> = {
  untrusted: { stakes: 'high', none: 'medium' },
  'ai-untrusted': { stakes: 'high', none: 'medium' },
  ai: { stakes: 'medium', none: 'medium' },
};
/** Worst controller first, when several references choose the host. */
const RANK: Readonly<Record<Controller, number>> = { untrusted: 2, 'ai-untrusted': 2, ai: 1 };

const WHO: Readonly<Record<Controller, string>> = {
  untrusted: 'untrusted input',
  'ai-untrusted': 'AI output generated from untrusted input',
  ai: 'AI output',
};

/**
 * Who controls a reference: input an outside party sends in (webhook, e-mail, chat, form, ticket),
 * AI output fed with untrusted input, AI output, or nobody outside. A link read from a feed or a
 * page the scenario itself chose to fetch is not counted: following it is the scenario's purpose,
 * not a forgery (`untrustedSourceOf(...).inbound`, engine/sources.ts). With it, the start of the
 * evidence path: the untrusted source (`untrusted`), the model that writes the address (`ai`), or
 * the untrusted source and the model it steers (`ai-untrusted`); the request module closes the path
 * and the engine fills in the modules between (`risk/path.ts`).
 */
function control(
  analysis: Analysis,
  df: DataFlow,
  r: FieldRef,
): { readonly who: Controller; readonly path: EvidenceStep[] } | null {
  if (df.untrustedSourceOf(r.moduleId)?.inbound === true)
    return { who: 'untrusted', path: [{ moduleId: df.untrustedOriginOf(r.moduleId) ?? r.moduleId, role: 'source' }] };
  const authors = modelAuthors(analysis, df, r);
  if (authors.length === 0) return null;
  const steered = authors.find((id) => df.untrustedInputs(id).length > 0);
  if (steered === undefined)
    return { who: 'ai', path: [{ moduleId: authors[0]!, role: 'source', note: 'writes the address' }] };
  const input = df.untrustedInputs(steered)[0]!.moduleId;
  return {
    who: 'ai-untrusted',
    path: [
      { moduleId: df.untrustedOriginOf(input) ?? input, role: 'source' },
      { moduleId: steered, role: 'step', note: 'writes the address from it' },
    ],
  };
}

/** SEC-6: the address an HTTP module calls is chosen by a caller or by a model. */
export const SEC_6: Policy = {
  code: 'SEC-6',
  title: 'Request URL controlled by untrusted input or AI output',
  category: 'SEC',
  severity: 'high',
  description:
    "An HTTP module takes the whole URL or its host from untrusted input (a webhook or mail payload) or from an AI model's output, so whoever writes that input, or steers the model, can make the scenario call any address, including internal services. Severity follows what the forged request can do: high when it carries a credential, sends data or its response drives further effects (written, sent on, fed to an agent); medium for a credential-less GET whose response only answers the requester, and for an address a model alone writes.",
  rationale:
    'Server-side request forgery (CWE-918; OWASP API7:2023 Server Side Request Forgery); model output used as a URL without validation (OWASP Top 10 for LLM Applications 2025, LLM05 Improper Output Handling). The OWASP SSRF Prevention Cheat Sheet requires the destination host to come from an allow-list, not from input. A path or query value on a fixed host is not reported. NIST SP 800-53 SC-7 boundary protection, SI-10 input validation.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.6'),
    ref(F.nist, 'SC-7'),
    ref(F.nist, 'SI-10'),
    ref(F.iso27001, 'A.8.20'),
    ref(F.pci, '6.2.4'),
  ],
  examples: {
    avoid:
      '`"url": "{{1.link}}"` after a custom webhook, `"url": "{{2.choices[].message.content}}"` after an OpenAI module, or `"url": "https://{{1.host}}/x"`.',
    prefer:
      'A fixed host with only a validated path or query value from the payload (`https://api.example.com/v1/items/{{1.id}}`), or a router that maps an allowed *name* to a fixed URL.',
  },
  evaluate(analysis) {
    const df = analysis.dataflow();
    const findings: Finding[] = [];
    for (const m of analysis.graph.modules) {
      if (!classify(m).http) continue;
      const leaf = urlField(m);
      const part = leaf ? mappedUrlPart(leaf.value) : null;
      if (!leaf || !part) continue;
      // Only the references placed before the host is fixed choose the destination.
      const head = leaf.value.slice(0, hostEnd(leaf.value));
      let worst: { who: Controller; r: FieldRef; path: EvidenceStep[] } | null = null;
      for (const r of extractRefs(head)) {
        const c = control(analysis, df, r);
        if (c && (!worst || RANK[c.who] > RANK[worst.who])) worst = { who: c.who, r, path: c.path };
      }
      if (!worst) continue;
      const stakes = requestStakes(analysis, m, leaf.pointer);
      findings.push({
        moduleId: m.id,
        severity: SEVERITY[worst.who][stakes.high ? 'stakes' : 'none'],
        reason: `the ${part} of the request comes from ${worst.who === 'untrusted' ? df.untrustedSourceOf(worst.r.moduleId)!.label : WHO[worst.who]} (\`{{${worst.r.moduleId}.${worst.r.path}}}\`)${stakes.high ? ' and ' : ', but '}${stakes.why}`,
        evidence: { pointer: leaf.pointer, value: `{{${worst.r.moduleId}.${worst.r.path}}}` }, // the mapping only: the URL may carry a key
        path: [
          ...worst.path,
          { moduleId: m.id, role: 'sink', note: `calls the address it takes (the ${part} of the URL)` },
        ],
      });
    }
    return failWith(
      findings,
      (n) => `${n} request${n === 1 ? '' : 's'} to an address chosen by untrusted input or AI output`,
    );
  },
  remediation: {
    effort: 'medium',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) =>
          `In ${moduleRef(m)}, make the scheme and host of the URL a fixed value; take at most a validated path segment or query value from the input.`,
      );
      steps.push(
        'Where several destinations are legitimate, map an allowed *name* from the input to a fixed URL with a router, and add a fallback route that rejects everything else.',
      );
      steps.push(
        'Never fetch a URL written by an AI model as is: extract it, check its host against an allow-list in a filter, and stop the route otherwise.',
      );
      return steps;
    },
  },
};
