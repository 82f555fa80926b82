/** @module engine/policies/priv/PRIV-6: special-category, identity and payment data leaving the scenario. */
import type { Finding, Policy } from '../types.js';
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { PiiFlow } from '../../dataflow.js';
import type { PiiKind } from '../../pii.js';
import type { RowId } from '../../risk/model.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { classify } from '../../blueprint/classify.js';
import { SPECIAL_PII } from '../../pii.js';
import { findingModules, moduleRef } from '../helpers.js';
import { riskRow } from '../../risk/model.js';
import { describeFlows, ownServiceOf, personalDataSinks, piiPath } from './shared.js';

/** Who receives the data: a model provider or an unknown HTTP host, people, or a record store of the operator. */
type Recipient = 'processor' | 'people' | 'store';

/**
 * The risk-model row by recipient and kind (`risk/model.ts`, issue 32). A model provider or an HTTP
 * host that is not a hosted database is a third party whose safeguards the scenario cannot show (R15,
 * critical; reviewer on make `sergibuendia-clinica-dental-presupuestos-automatizados` 7); a message to
 * people copies the data into mailboxes and chats (R18, high); a record store of the operator (a
 * sheet, a CRM, its own database) is where the controller keeps the data, a weakness of protection
 * (Art. 32) rather than a disclosure (R19, medium), except a card number or security code, which PCI
 * DSS v4.0 3.3.1 / 3.5.1 forbid storing readable anywhere (R20, high).
 */
const ROW: Readonly<Record<Recipient, RowId>> = { processor: 'R15', people: 'R18', store: 'R19' };
const STORE_ROW_BY_KIND: Partial<Record<PiiKind, RowId>> = { card: 'R20' };

/** What the sink does with the data, for the evidence path. */
const RECIPIENT_NOTE: Readonly<Record<Recipient, string>> = {
  processor: 'sends it to a third-party processor',
  people: 'sends it to people',
  store: "keeps it in the operator's records",
};

function recipientOf(m: ModuleNode): Recipient {
  const cls = classify(m);
  // A model, or a conversion or code service (PDF.co, a cloud function): it processes what it receives.
  if (cls.ai || cls.effect === 'compute') return 'processor';
  if (cls.http) {
    const service = ownServiceOf(m);
    return service === null ? 'processor' : service.kind === 'messaging' ? 'people' : 'store';
  }
  return cls.effect === 'send' && cls.send?.toSelf !== true ? 'people' : 'store';
}

/**
 * True when a message goes to the person the data is about: every recipient field maps the module
 * the sensitive data comes from (an answer e-mailed to the address given in the same form). Giving
 * people their own data is not a disclosure (GDPR Art. 15).
 */
function toDataSubject(analysis: Analysis, m: ModuleNode, sensitive: readonly PiiFlow[]): boolean {
  const keys = classify(m).send?.recipients ?? [];
  if (keys.length === 0) return false;
  const sources = new Set(sensitive.map((f) => f.from.moduleId));
  if (sources.size !== 1) return false;
  const fields = keys.map((k) => `${m.pointer}/mapper/${k}`);
  const inField = (pointer: string) => fields.some((f) => pointer === f || pointer.startsWith(`${f}/`));
  const recipientRefs = analysis
    .dataflow()
    .refsOf(m.id)
    .filter((r) => inField(r.pointer));
  return recipientRefs.length > 0 && recipientRefs.every((r) => sources.has(r.moduleId));
}

/** PRIV-6: health data, national ids, card numbers or bank accounts reach another system. */
export const PRIV_6: Policy = {
  code: 'PRIV-6',
  title: 'Sensitive personal data sent to another system',
  category: 'PRIV',
  severity: 'critical',
  description:
    "Special-category data by what it is (health data, national identifiers and identity documents, tax data, CVs, payment-card or bank-account data), read from field names or a form question's title and followed through variables, data store records, document conversions, file downloads and uploads, reaches a module that sends it to another system: critical to an AI model or an unknown HTTP host (risk-model row R15), high in a message to people (R18), medium into the operator's own record store (R19; high for card data, R20). A message back to the person the data is about is not reported.",
  rationale:
    'Special categories (GDPR Art. 9) and identity or payment data need an explicit legal basis and strong protection; card numbers bring the scenario into PCI DSS scope (v4.0 3.5.1 unreadable when stored, 4.2.1 strong cryptography in transit); health data is ePHI under HIPAA §164.312(e)(1).',
  compliance_frameworks: [
    ref(F.gdpr, 'Art. 9'),
    ref(F.gdpr, 'Art. 32'),
    ref(F.pci, '3.5.1'),
    ref(F.pci, '4.2.1'),
    ref(F.hipaa, '§164.312(e)(1)'),
    ref(F.iso27001, 'A.5.34'),
  ],
  examples: {
    avoid: '`"values": { "0": "{{1.card_number}}" }` in a Google Sheets module.',
    prefer: 'A tokenised reference from the payment provider (`{{1.payment_method_id}}`), never the number itself.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    for (const s of personalDataSinks(analysis)) {
      // An HTTP read whose only special datum is the address it fetches downloads a file; it sends nothing.
      const fetchOnly = classify(s.module).http && classify(s.module).effect === 'read';
      const sensitive = s.flows.filter(
        (f) => SPECIAL_PII.has(f.kind) && !(fetchOnly && /\/(?:mapper|parameters)\/url$/.test(f.pointer)),
      );
      if (sensitive.length === 0) continue;
      const recipient = recipientOf(s.module);
      if (recipient === 'people' && toDataSubject(analysis, s.module, sensitive)) continue;
      const storeRow = sensitive.map((f) => STORE_ROW_BY_KIND[f.kind]).find((r) => r !== undefined);
      const id = recipient === 'store' && storeRow ? storeRow : ROW[recipient];
      const risk = riskRow(id, {
        sensitivity: 'special-category',
        ...(recipient === 'people'
          ? { audience: 'third-party' as const }
          : recipient === 'store'
            ? { audience: 'owner' as const }
            : {}),
        impact: recipient === 'store' ? 'write-own' : 'send',
      });
      findings.push({
        moduleId: s.module.id,
        severity: risk.severity,
        reason: `receives ${describeFlows(sensitive)}`,
        evidence: { pointer: sensitive[0]!.pointer },
        risk,
        path: piiPath(analysis, sensitive[0]!, s.module, RECIPIENT_NOTE[recipient]),
      });
    }
    return findings.length === 0
      ? null
      : {
          status: 'fail',
          findings,
          summary: `Sensitive personal data reaches ${findings.length} module${findings.length === 1 ? '' : 's'}`,
        };
  },
  remediation: {
    effort: 'high',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map(
        (m) => `Stop sending the sensitive fields to ${moduleRef(m)}; pass a token or an internal reference instead.`,
      );
      steps.push(
        'If the transfer is required, document its legal basis (GDPR Art. 9(2)), mark the scenario confidential and restrict who can open it.',
      );
      return steps;
    },
  },
};
