/**
 * @module engine/policies/arc/ARC-10: unconfigured templates, where a placeholder stands in a
 * connection, id, address or credential slot, so the scenario cannot run as is.
 *
 * Sources: Make documentation "Connections" (a module runs with the connection whose numeric id is in
 * `parameters.__IMTCONN__`; webhooks, keychains and data stores are referenced by id the same way);
 * corpus FORMAT.md "Connections, credentials, keys" (sanitised exports replace the id with
 * `CONNECTION_PLACEHOLDER`, `<CONNECTION_ID>`, `YOUR_CONNECTION_ID`; `metadata.zone` can be
 * `YOUR_MAKE_ZONE`); corpus make-extra MANIFEST category 4 (`YOUR_GOOGLE_SHEET_ID`,
 * `Your Telegram chatId`, `Your API KEY`, `YOUR_ANTHROPIC_API_KEY`).
 */
import type { Analysis, StringLeaf } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { Finding, Policy } from '../types.js';
import { FRAMEWORKS as F, ref } from '../../frameworks/registry.js';
import { isCredentialName } from '../../secrets/patterns.js';
import { boundedMemo } from '../../memo.js';
import { embeddedPlaceholder, wholePlaceholder } from '../../placeholders.js';
import { fieldPath, findingModules, moduleRef } from '../helpers.js';

/** What a slot holds, and so what is missing when a placeholder stands in it. */
export type SlotKind = 'connection' | 'credential' | 'address' | 'identifier';

/** Parameters that always hold a numeric id of a Make object (connection, hook). */
const REFERENCE_KEYS: ReadonlySet<string> = new Set(['__IMTCONN__', '__IMTHOOK__']);
/** `metadata.parameters[].type` of parameters that reference a Make object by id (FORMAT.md "Other typed parameters"). */
const REFERENCE_TYPE = /^(?:account|hook|keychain|datastore|udt|device)(?::|$)/;

/** Field names (lower-case, letters and digits only) of identifier and recipient slots. */
const IDENTIFIER_NAMES: ReadonlySet<string> = new Set([
  'file',
  'folder',
  'base',
  'table',
  'channel',
  'chat',
  'calendar',
  'spreadsheet',
  'sheet',
  'database',
  'board',
  'list',
  'page',
  'workspace',
  'project',
  'account',
  'connection',
  'hook',
  'path',
  'folderpath',
  'to',
  'cc',
  'bcc',
  'recipient',
  'recipients',
  'email',
  'from',
  'sender',
  'replyto',
  'phone',
  'phonenumber',
  'user',
  'username',
]);
/** `spreadsheetId`, `page_id`, `PAGE_ID`, `chatIds` (not `paid`, `valid`). */
const isIdName = (name: string): boolean => /(?:^|[\s_.-])ids?$/i.test(name) || /[a-z0-9]I[Dd]s?$/.test(name);
/** `url`, `webhookUrl`, `endpoint`. */
const ADDRESS_NAME = /(?:url|uri|endpoint)$/;

/** What is missing when a slot of each kind holds a placeholder. */
const MISSING: Readonly<Record<SlotKind, string>> = {
  connection: 'a connection, webhook or keychain id',
  credential: 'a credential',
  address: 'an address',
  identifier: 'an id or recipient',
};

/** The kind of slot a field name announces (credential, address, identifier), or `null` for free text (prompts, bodies, labels). */
export function nameKind(name: string): Exclude<SlotKind, 'connection'> | null {
  if (isCredentialName(name)) return 'credential';
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (ADDRESS_NAME.test(n)) return 'address';
  if (IDENTIFIER_NAMES.has(n) || isIdName(name)) return 'identifier';
  return null;
}

/** `nameKind` memoised: field names repeat across modules and scenarios (bounded, see memo.ts). */
const cachedNameKind = boundedMemo(4096, nameKind);

/** The kind of slot a string leaf is, or `null` for free text. */
export function slotKind(leaf: StringLeaf): SlotKind | null {
  const name = leaf.fieldName;
  if (name === null) return null;
  if (
    leaf.section === 'parameters' &&
    (REFERENCE_KEYS.has(name) ||
      (!isIdOrEmpty(leaf.value) && REFERENCE_TYPE.test(declaredType(leaf.module, name) ?? '')))
  )
    return 'connection';
  return cachedNameKind(name);
}

/** True for values a reference slot accepts as they are (a numeric id, a mapping, or empty); skips the metadata look-up. */
function isIdOrEmpty(value: string): boolean {
  const v = value.trim();
  return v === '' || v.includes('{{') || /^\d+$/.test(v);
}

/** The type a module's `metadata.parameters` declares for a parameter (`account:google`), when any. */
function declaredType(m: ModuleNode, name: string): string | null {
  const list = m.metadata?.['parameters'];
  if (!Array.isArray(list)) return null;
  for (const p of list)
    if (p && typeof p === 'object' && !Array.isArray(p) && p['name'] === name && typeof p['type'] === 'string')
      return p['type'];
  return null;
}

/** The placeholder in one slot, or `null`. Connection slots take only a numeric id or a mapping. */
export function unconfigured(leaf: StringLeaf, kind: SlotKind): string | null {
  const v = leaf.value.trim();
  // An empty reference is an optional one left unset (`proxyKeychain`, a parser's `type`), not a placeholder.
  if (kind === 'connection') return isIdOrEmpty(v) ? null : v.slice(0, 80);
  if (kind === 'credential' && /^(?:bearer|basic|token)$/i.test(v)) return `${v} (no token)`; // `Bearer ` with the token removed
  return wholePlaceholder(v) ?? (kind === 'address' || kind === 'credential' ? embeddedPlaceholder(v) : null);
}

/** `metadata.zone` when it is a placeholder (`YOUR_MAKE_ZONE`, `<zone>`), else `null`. */
function zonePlaceholder(analysis: Analysis): string | null {
  const zone = analysis.graph.settings.zone;
  if (zone === null) return null;
  return wholePlaceholder(zone) ?? embeddedPlaceholder(zone) ?? (zone.includes('{{') ? zone.slice(0, 80) : null);
}

/** ARC-10: a placeholder stands where a connection, id, address or credential must be. */
export const ARC_10: Policy = {
  code: 'ARC-10',
  title: 'Unconfigured template',
  category: 'ARC',
  severity: 'medium',
  description:
    'A module keeps a template placeholder (`YOUR_SPREADSHEET_ID`, `<CONNECTION_ID>`, `CONNECTION_PLACEHOLDER`, `Your API KEY`) where a connection, id, address or credential must be, so the scenario cannot run as is. Placeholders in free text (prompts, message bodies) are not reported.',
  rationale:
    'A shared or sanitised blueprint is a template until every slot is configured; deployed as is it fails on its first run (or, for a placeholder credential, on every request), and an operator may "fix" it under time pressure by pasting a secret into the module. Configuration must be complete and reviewed before release (ISO/IEC 27001:2022 A.8.9 configuration management; NIST SP 800-53 CM-2 baseline configuration, CM-6 configuration settings; SOC 2 CC8.1 changes are tested before deployment).',
  compliance_frameworks: [ref(F.iso27001, 'A.8.9'), ref(F.nist, 'CM-2'), ref(F.nist, 'CM-6'), ref(F.soc2, 'CC8.1')],
  examples: {
    avoid:
      '`"parameters": { "__IMTCONN__": "YOUR_CONNECTION_ID" }`, `"spreadsheetId": "/YOUR_GOOGLE_SHEET_ID"`, `"headers": [{ "name": "x-api-key", "value": "YOUR_ANTHROPIC_API_KEY" }]`',
    prefer:
      'A connection chosen in the module (`"__IMTCONN__": 7920371`), the real spreadsheet picked from the list, and the API key in a keychain (`http:ActionSendDataAPIKeyAuth`, `parameters.auth`).',
  },
  evaluate(analysis) {
    const perModule = new Map<string, { leaf: StringLeaf; kind: SlotKind; marker: string }[]>();
    for (const leaf of analysis.strings()) {
      const kind = slotKind(leaf);
      const marker = kind ? unconfigured(leaf, kind) : null;
      if (kind && marker !== null)
        (perModule.get(leaf.module.id) ?? perModule.set(leaf.module.id, []).get(leaf.module.id)!).push({
          leaf,
          kind,
          marker,
        });
    }
    const findings: Finding[] = [];
    for (const [moduleId, slots] of perModule) {
      const m = analysis.module(moduleId);
      const first = slots[0]!;
      const listed = slots
        .slice(0, 3)
        .map((s) => `\`${fieldPath(m, s.leaf.pointer)}\` holds \`${s.marker}\` instead of ${MISSING[s.kind]}`)
        .join('; ');
      findings.push({
        moduleId,
        reason: `not configured: ${listed}${slots.length > 3 ? `; and ${slots.length - 3} more` : ''}`,
        evidence: { pointer: first.leaf.pointer, value: first.marker },
      });
    }
    const zone = zonePlaceholder(analysis);
    const zoneNote = zone ? `; metadata.zone is the placeholder \`${zone}\`` : '';
    if (findings.length > 0) {
      const n = findings.length;
      return {
        status: 'fail',
        findings,
        summary: `${n} module${n === 1 ? '' : 's'} still hold${n === 1 ? 's' : ''} template placeholders${zoneNote}`,
        ...(zone ? { evidence: { pointer: '/metadata/zone', value: zone } } : {}),
      };
    }
    if (!zone) return null;
    // The zone is set by the organisation a blueprint is imported into; alone it only shows the export is a template.
    return {
      status: 'warn',
      findings: [],
      severity: 'low',
      summary: `metadata.zone is the placeholder \`${zone}\`: the blueprint is an unconfigured template`,
      evidence: { pointer: '/metadata/zone', value: zone },
    };
  },
  remediation: {
    effort: 'low',
    steps(outcome, analysis) {
      const steps = findingModules(outcome, analysis).map((m) => {
        const fields = outcome.findings
          .filter((f) => f.moduleId === m.id)
          .map((f) => f.reason.replace(/^not configured: /, ''))
          .join('; ');
        return `Open ${moduleRef(m)} and configure it (${fields}): choose the connection, pick the real record, or map the value from an earlier module.`;
      });
      steps.push(
        'Put credentials in a Make connection or keychain, never in the module fields, when you replace a placeholder API key.',
      );
      if (outcome.evidence?.pointer === '/metadata/zone')
        steps.push('Re-export the blueprint from the configured scenario so that its zone and any hook URLs are real.');
      steps.push(
        'Run the scenario once with **Run once** before activating it, and keep the configured export (not the template) as the reviewed version.',
      );
      return steps;
    },
  },
};
