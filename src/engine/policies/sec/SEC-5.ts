/** @module engine/policies/sec/SEC-5: webhook triggers that accept any caller. */
import type { Json, ModuleNode } from '../../blueprint/types.js';
import type { Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { downstreamOf, moduleRef } from '../helpers.js';
import { riskRow } from '../../risk/model.js';
import { CallerInput } from './caller-input.js';
import { assessForgery } from './forged-impact.js';

/** Names of request fields that authenticate a webhook call (shared secret, signature, token). */
const AUTH_FIELD = /(?:__IMTHEADERS__|secret|signature|hmac|token|api[_-]?key|auth|x-hub|x-signature|password|verify)/i;
/** Fields of a mail hook's output that identify the sender (an allowlist of senders is the mail hook's check). */
const SENDER_FIELD = /(?:sender|from|replyto|reply_to|spf|dkim)/i;

/**
 * Payload fields that carry a secret the owner issued (`token`, `api_key`, `session_id`, a request
 * header): a value a caller cannot guess, unlike a name, an e-mail or a numeric id.
 */
const TOKEN_FIELD =
  /(?:token|secret|api[_-]?key|access[_-]?key|auth|session|passcode|password|signature|hmac|nonce|uuid|guid|otp|__imtheaders__)/i;

/** Module kinds that only pass values on or look them up: what runs before an access check without acting. */
const INERT: ReadonlySet<string> = new Set(['transform', 'flow', 'directive', 'read', 'trigger']);

/**
 * True when the scenario checks its caller by looking up an unguessable token: a read (a data store
 * record, a sheet or database search) keyed by a token-named field of the payload, whose result a
 * filter then tests (the record exists, matches, or was found at all), and every module that acts on
 * the payload (writes, sends, deletes, AI calls, answers) runs behind that filter. Only a caller
 * holding a token the owner issued gets through: an access check, like comparing a shared secret
 * (issue 32; OWASP ASVS V3, token-based session management).
 */
function checksTokenByLookup(analysis: Analysis, trigger: ModuleNode): boolean {
  const df = analysis.dataflow();
  let input: CallerInput | null = null;
  for (const m of analysis.graph.modules) {
    if (classify(m).role !== 'read') continue;
    const keyed = df
      .refsOf(m.id)
      .some((r) => r.moduleId === trigger.id && TOKEN_FIELD.test(r.path.split('.').pop() ?? ''));
    if (!keyed) continue;
    for (const g of analysis.graph.modules) {
      if (!df.filterRefsOf(g.id).some((r) => r.moduleId === m.id)) continue;
      const guarded = new Set([g.id, ...downstreamOf(g, analysis).map((x) => x.id)]);
      input ??= new CallerInput(analysis, trigger.id);
      const exposed = analysis.graph.modules.some(
        (x) => x !== trigger && !guarded.has(x.id) && !INERT.has(classify(x).effect) && input!.carries(x),
      );
      if (!exposed) return true;
    }
  }
  return false;
}

/** True when some filter condition reads an authenticating field of the trigger's output. */
function checksCaller(trigger: ModuleNode, modules: readonly ModuleNode[], mail: boolean): boolean {
  const prefix = `{{${trigger.id}.`;
  const field = mail ? SENDER_FIELD : AUTH_FIELD;
  const mentions = (v: Json | undefined): boolean => typeof v === 'string' && v.includes(prefix) && field.test(v);
  return modules.some(
    (m) =>
      m.filter !== null && m.filter.conditions.some((group) => group.some((c) => mentions(c['a']) || mentions(c['b']))),
  );
}

/**
 * SEC-5: a custom webhook starts the scenario without checking who calls it. Severity is what a
 * forged call can make the scenario do (`forged-impact.ts`): high when the caller can aim it (choose
 * what it changes, relay a message in the organisation's name, publish, push data through a
 * credential another system trusts, instruct an AI agent, fake a payment or order event), medium
 * when forged data only reaches the owner's own records, internal notifications, templated replies,
 * AI calls or an answer to the caller, low when the payload is never used. A mail hook is low and a
 * warning: receiving mail from anyone is its purpose.
 */
export const SEC_5: Policy = {
  code: 'SEC-5',
  title: 'Webhook trigger without caller verification',
  category: 'SEC',
  severity: 'high',
  description:
    "The scenario starts from a custom webhook (or mail hook) and no filter checks a shared secret, signature or token before the data is used, nor does it look up a token the caller sends and filter on the result: anyone who learns the URL can run the scenario with forged data. Severity is the risk-model row of what forged data can make the scenario do: high when the caller can choose what is changed (R5), relay a message (R6), publish (R7), push data through a credential (R8), instruct an AI agent (R4) or fake a payment (R9); medium when forged data only reaches the owner's records, notifications, templated replies, AI calls or an answer (R12); low when the payload is never used (R13) or for a mail hook (R14).",
  rationale:
    "Make webhook URLs are bearer capabilities that leak through logs and shared blueprints; inbound requests must be authenticated and validated (NIST SP 800-53 AC-3 and SI-10, SOC 2 CC6.1/CC6.6). Make offers IP restrictions and data-structure validation on the hook; the scenario should also verify a secret header or signature. The risk is what a forged call can do: choosing which record, file or script is changed, relaying messages or posts in the organisation's name, pushing data into another system with the scenario's credential, instructing an AI agent or faking a payment is high (OWASP API2:2023 broken authentication, CWE-306); junk rows in the owner's own systems, internal notifications, templated replies, AI cost or answers to the caller are medium.",
  compliance_frameworks: [
    ref(F.soc2, 'CC6.1'),
    ref(F.soc2, 'CC6.6'),
    ref(F.iso27001, 'A.8.20'),
    ref(F.nist, 'AC-3'),
    ref(F.nist, 'SI-10'),
    ref(F.gdpr, 'Art. 32'),
  ],
  examples: {
    avoid:
      'A `gateway:CustomWebHook` whose `{{1.record_id}}` selects the Airtable record an *Update a record* overwrites, or whose `{{1.phone}}` receives an SMS written by an AI from `{{1.message}}`.',
    prefer:
      'Enable *Get request headers* on the hook and put a filter `{{1.__IMTHEADERS__[].value}}` *equal to* the shared secret (or verify an HMAC signature) on the first module after it.',
  },
  evaluate(analysis) {
    const trigger = analysis.first;
    if (!trigger || (analysis.trigger !== 'webhook' && analysis.trigger !== 'mailhook')) return null;
    const mail = analysis.trigger === 'mailhook';
    if (checksCaller(trigger, analysis.graph.modules, mail)) return null;
    if (mail) {
      const reason =
        'mail hook accepts mail from any sender: receiving mail from anyone is its purpose (a From check is spoofable), so this is a reminder to restrict senders where the inbox has known ones';
      const risk = riskRow('R14', { trust: 'inbound-message', impact: 'read' });
      return {
        status: 'warn',
        findings: [
          {
            moduleId: trigger.id,
            reason,
            severity: risk.severity,
            evidence: { pointer: trigger.pointer },
            risk,
            path: [
              { moduleId: trigger.id, role: 'source', note: 'receives mail from any sender' },
              { moduleId: trigger.id, role: 'sink', note: 'starts the run' },
            ],
          },
        ],
        summary: 'The mail hook accepts mail from any sender',
      };
    }
    if (checksTokenByLookup(analysis, trigger)) return null;
    const { severity, what, risk, sink } = assessForgery(analysis, trigger);
    const reason = `custom webhook accepts any caller (no filter verifies a secret, token or signature): forged calls can ${what}`;
    return {
      status: 'fail',
      findings: [
        {
          moduleId: trigger.id,
          reason,
          severity,
          evidence: { pointer: trigger.pointer },
          risk,
          path: [
            { moduleId: trigger.id, role: 'source', note: 'accepts any caller' },
            { moduleId: sink.id, role: 'sink', note: what.split('; ')[0]!.slice(0, 200) },
          ],
        },
      ],
      summary: 'The webhook trigger does not verify its caller',
    };
  },
  remediation: {
    effort: 'medium',
    steps(_outcome, analysis) {
      const trigger = analysis.first!;
      return [
        `Open ${moduleRef(trigger)}, click **Add** next to the webhook, open *Show advanced settings* and set an **IP restrictions** list for the sender's addresses where it has fixed ones.`,
        'In the same dialog enable **Get request headers** and define a **data structure** so malformed payloads are rejected.',
        'Have the sender include a shared secret header (or an HMAC signature) and add a **filter** on the first module after the trigger that continues only when that header matches.',
        'Rotate the webhook URL (create a new hook) if it was ever shared or committed.',
      ];
    },
  },
};
