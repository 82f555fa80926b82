/** @module engine/policies/sec/SEC-1: hard-coded credentials and tokens in module fields. */
import type { Finding, Policy } from '../types.js';
import { SEVERITY_RANK, type Severity } from '../../severity.js';
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { BlueprintLeaf, LeafSection } from '../../leaves.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import type { SecretFinding } from '../../secrets/types.js';
import { redact } from '../../secrets/scan.js';
import { blueprintSecrets, type BlueprintCredential } from '../../secrets/credentials.js';
import { failWith, fieldPath, moduleRef } from '../helpers.js';

/**
 * Kinds reported as critical: credentials that open a whole cloud account, code host, payment
 * account or database (AWS, a Stripe secret key, private keys, GitHub/GitLab tokens, a Supabase
 * personal access token (the Management API of every project of the account), a password in a URL,
 * a Firebase database secret, which bypasses the database's security rules). A service's API
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
  'supabase-access-token',
  'url-basic-auth',
  'firebase-database-secret',
]);

/**
 * Password fields that encrypt or restrict a file the scenario produces (a PDF's owner or user
 * password, an archive password), not an account: reported medium, as the document they protect
 * is the only thing exposed (make-extra `manasoid-generate-invoice-from-template` 25).
 */
const DOCUMENT_PASSWORD_FIELD = /^(?:owner|user|pdf|document|file|zip|archive)[\s_-]?password$/i;

/** Kinds that are a copy of a credential found elsewhere: they add places, not a credential. */
const COPY_KINDS: ReadonlySet<string> = new Set(['repeated-credential', 'repeated-credential-identifier']);

/**
 * Severity of the credential found in one string: see CRITICAL_KINDS and DOCUMENT_PASSWORD_FIELD;
 * a key public by design (`publishable-key`: a Supabase anon JWT, a Stripe `pk_live_` key) is low
 * (issue 32: its own claims or documented prefix say it is public); the identifier half of a pair
 * alone (a Z-API instance id) is low.
 */
function severityOf(fieldName: string | null, secrets: readonly SecretFinding[]): Severity {
  if (secrets.some((s) => CRITICAL_KINDS.has(s.kind))) return 'critical';
  if (secrets.every((s) => s.kind === 'publishable-key' || s.identifier === true)) return 'low';
  if (
    fieldName !== null &&
    DOCUMENT_PASSWORD_FIELD.test(fieldName) &&
    secrets.every((s) => s.kind === 'credential-field')
  )
    return 'medium';
  return 'high';
}

/** Worst of two severities. */
function worst(a: Severity | null, b: Severity): Severity {
  return a === null || SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

/** Sections outside any module: their field paths are named from the blueprint root. */
const SCENARIO_SECTIONS: ReadonlySet<LeafSection> = new Set(['scenario-metadata', 'io', 'scenario']);
/** Further places named in a finding's reason (all are in `locations` and the remediation). */
const MAX_PLACES_NAMED = 6;

/** The module a string is reported on: its own, the module a scenario-level string describes, else the first. */
function moduleOf(analysis: Analysis, leaf: BlueprintLeaf): ModuleNode | undefined {
  return leaf.module ?? analysis.first ?? analysis.graph.modules[0];
}

/** `` `mapper.url` `` or `` scenario `metadata.designer.samples[1].id` `` (a string outside any module). */
function placeOf(module: ModuleNode, leaf: BlueprintLeaf): string {
  return `${SCENARIO_SECTIONS.has(leaf.section) ? 'scenario ' : ''}\`${fieldPath(module, leaf.pointer)}\``;
}

/**
 * One finding per credential (issue 32), on the first string that holds it as found (not only as a
 * copy): its severity is the worst of its places; its reason names the secret, says when it also
 * travels in a URL query string, and lists the other places; `locations` carries them all.
 */
function findingOf(analysis: Analysis, credential: BlueprintCredential): Finding | null {
  const places = credential.locations;
  const primary = places.find((p) => p.secrets.some((s) => !COPY_KINDS.has(s.kind))) ?? places[0];
  const module = primary && moduleOf(analysis, primary.leaf);
  if (!primary || !module) return null;
  let severity: Severity | null = null;
  let inQuery = false;
  for (const p of places) {
    const found = p.secrets.filter((s) => !COPY_KINDS.has(s.kind));
    if (found.length > 0) severity = worst(severity, severityOf(p.leaf.fieldName, found));
    if (p.secrets.some((s) => s.inQuery === true)) inQuery = true;
  }
  const titles = [...new Set(primary.secrets.map((s) => s.title))].join(', ');
  const others = places.filter((p) => p !== primary);
  const named = others.slice(0, MAX_PLACES_NAMED).map((p) => {
    const m = moduleOf(analysis, p.leaf)!;
    return `module ${m.id} ${placeOf(m, p.leaf)}`;
  });
  if (others.length > MAX_PLACES_NAMED) named.push(`${others.length - MAX_PLACES_NAMED} more`);
  const reason = [
    `${placeOf(module, primary.leaf)} holds a literal ${titles}`,
    ...(inQuery
      ? ["sent in a URL query string, where servers, proxies and Make's execution history log it (CWE-598)"]
      : []),
    ...(others.length > 0 ? [`the same credential is also in ${named.join(', ')} (${places.length} places)`] : []),
  ].join('; ');
  const locations = [primary, ...others].map((p) => ({
    moduleId: moduleOf(analysis, p.leaf)!.id,
    pointer: p.leaf.pointer,
  }));
  return {
    moduleId: module.id,
    reason,
    severity: severity ?? 'high',
    evidence: { pointer: primary.leaf.pointer, value: redact(primary.leaf.value, primary.secrets) },
    ...(locations.length > 1 ? { locations } : {}),
  };
}

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
    // Every string: mapper, parameters, filters, metadata (restore, samples), scenario metadata and io;
    // one finding per credential, with all its places.
    const findings: Finding[] = [];
    for (const credential of blueprintSecrets(analysis).credentials) {
      const finding = findingOf(analysis, credential);
      if (finding) findings.push(finding);
    }
    return failWith(findings, (n) => `${n} hard-coded credential${n === 1 ? '' : 's'} found in the blueprint`);
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = [
        '**Revoke and rotate** every exposed credential at its provider now: it has been stored in clear in this blueprint and in every export of it.',
      ];
      // Every module that holds a credential, once, with every field to clear (all places of each credential).
      const fields = new Map<string, string[]>();
      for (const f of outcome.findings) {
        const places = f.locations ?? (f.evidence ? [{ moduleId: f.moduleId, pointer: f.evidence.pointer }] : []);
        for (const p of places) {
          const list = fields.get(p.moduleId) ?? fields.set(p.moduleId, []).get(p.moduleId)!;
          const field = `\`${fieldPath(analysis.module(p.moduleId), p.pointer)}\``;
          if (!list.includes(field)) list.push(field);
        }
      }
      for (const [id, list] of fields) {
        steps.push(
          `In ${moduleRef(analysis.module(id))}, remove the literal value from ${list.join(', ')} and use a Make **connection** or **keychain** instead (for HTTP: *HTTP > Make an API Key Auth request* with a keychain).`,
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
