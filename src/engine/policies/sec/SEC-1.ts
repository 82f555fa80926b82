/** @module engine/policies/sec/SEC-1: hard-coded credentials and tokens in module fields. */
import type { Finding, Policy } from '../types.js';
import type { Severity } from '../../severity.js';
import type { LeafSection } from '../../leaves.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import type { SecretFinding } from '../../secrets/types.js';
import { redact } from '../../secrets/scan.js';
import { scanBlueprint } from '../../secrets/blueprint.js';
import { failWith, fieldPath, findingModules, moduleRef } from '../helpers.js';

/**
 * Kinds reported as critical: credentials that open a whole cloud account, code host, payment
 * account or database (AWS, a Stripe secret key, private keys, GitHub/GitLab tokens, a password in
 * a URL, a Firebase database secret, which bypasses the database's security rules). A service's API
 * token (OpenAI, Anthropic, Meta Graph, Slack: usage, billing and the service's own data, revocable
 * at the provider) and any other credential are high (issue 14 labelled set: the 7 OpenAI and
 * WhatsApp tokens of the corpora were judged overstated at critical).
 */
const CRITICAL_KINDS = new Set([
  'aws-access-key-id',
  'stripe-secret-key',
  'private-key',
  'github-token',
  'github-fine-grained-pat',
  'gitlab-token',
  'url-basic-auth',
  'firebase-database-secret',
]);

/**
 * Password fields that encrypt or restrict a file the scenario produces (a PDF's owner or user
 * password, an archive password), not an account: reported medium, as the document they protect
 * is the only thing exposed (make-extra `manasoid-generate-invoice-from-template` 25).
 */
const DOCUMENT_PASSWORD_FIELD = /^(?:owner|user|pdf|document|file|zip|archive)[\s_-]?password$/i;

/**
 * Severity of one string's credentials: see CRITICAL_KINDS and DOCUMENT_PASSWORD_FIELD; a string
 * holding only copies of a pair's identifier half (a Z-API instance id in sample data, useless
 * without the token reported where the pair is) is low (make-extra `kairolopes` 1).
 */
function severityOf(fieldName: string | null, secrets: readonly SecretFinding[]): Severity {
  if (secrets.some((s) => CRITICAL_KINDS.has(s.kind))) return 'critical';
  if (secrets.every((s) => s.kind === 'repeated-credential-identifier')) return 'low';
  if (
    fieldName !== null &&
    DOCUMENT_PASSWORD_FIELD.test(fieldName) &&
    secrets.every((s) => s.kind === 'credential-field')
  )
    return 'medium';
  return 'high';
}

/** Sections outside any module: their field paths are named from the blueprint root. */
const SCENARIO_SECTIONS: ReadonlySet<LeafSection> = new Set(['scenario-metadata', 'io', 'scenario']);

/** SEC-1: a secret typed into a module instead of a connection or keychain. */
export const SEC_1: Policy = {
  code: 'SEC-1',
  title: 'Hard-coded credential or token',
  category: 'SEC',
  severity: 'critical',
  subject: 'artefact',
  description:
    'A module holds a literal credential (API key, access token, password, session cookie or secret webhook URL) in its fields, filters or metadata instead of a Make connection or keychain.',
  rationale:
    'Blueprints are exported, shared and committed to repositories; a secret typed into a module travels with every copy and cannot be rotated without editing every scenario. CWE-798; PCI DSS v4.0 8.6.2 forbids hard-coded account passwords; NIST SP 800-53 IA-5(7) forbids embedded static authenticators.',
  compliance_frameworks: [
    ref(F.soc2, 'CC6.1'),
    ref(F.iso27001, 'A.5.17'),
    ref(F.nist, 'IA-5(7)'),
    ref(F.pci, '8.6.2'),
    ref(F.hipaa, '§164.312(d)'),
    ref(F.gdpr, 'Art. 32'),
  ],
  examples: {
    avoid: '`"headers": [{ "name": "Authorization", "value": "Bearer EAAG...real token..." }]`',
    prefer:
      'An HTTP module with a keychain (`http:ActionSendDataAPIKeyAuth`, `parameters.auth`) or a header mapped from a data store: `"value": "Bearer {{9.value}}"`.',
  },
  evaluate(analysis) {
    const findings: Finding[] = [];
    // Every string: mapper, parameters, filters, metadata (restore, samples), scenario metadata and io.
    for (const { leaf, secrets } of scanBlueprint(analysis)) {
      // A scenario-level string is reported on the module it describes, else on the first module.
      const module = leaf.module ?? analysis.first ?? analysis.graph.modules[0];
      if (!module) continue;
      const severity = severityOf(leaf.fieldName, secrets);
      const where = `${SCENARIO_SECTIONS.has(leaf.section) ? 'scenario ' : ''}\`${fieldPath(module, leaf.pointer)}\``;
      findings.push({
        moduleId: module.id,
        reason: `${where} holds a literal ${[...new Set(secrets.map((s) => s.title))].join(', ')}`,
        severity,
        evidence: { pointer: leaf.pointer, value: redact(leaf.value, secrets) },
      });
    }
    return failWith(findings, (n) => `${n} hard-coded credential${n === 1 ? '' : 's'} found in the blueprint`);
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = [
        '**Revoke and rotate** every exposed credential at its provider now: it has been stored in clear in this blueprint and in every export of it.',
      ];
      for (const m of findingModules(outcome, analysis)) {
        const fields = outcome.findings
          .filter((f) => f.moduleId === m.id)
          .map((f) => `\`${f.evidence ? fieldPath(m, f.evidence.pointer) : ''}\``);
        steps.push(
          `In ${moduleRef(m)}, remove the literal value from ${fields.join(', ')} and use a Make **connection** or **keychain** instead (for HTTP: *HTTP > Make an API Key Auth request* with a keychain).`,
        );
      }
      steps.push(
        'If a value must be dynamic, read it at run time from a **data store** or scenario input instead of typing it into the module.',
      );
      steps.push('Re-export the blueprint and confirm that no secret remains in it before sharing or committing it.');
      return steps;
    },
  },
};
