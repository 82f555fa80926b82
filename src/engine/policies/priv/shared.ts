/** @module engine/policies/priv/shared: where personal data goes (shared by the PRIV policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { PiiFlow } from '../../dataflow.js';
import type { EvidenceStep } from '../../risk/types.js';
import { SharedKey } from '../../analysis.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { PII_KIND_LABELS } from '../../pii.js';
import { identifyingFlows } from '../../risk/sensitivity.js';

/** A module receiving personal data, with the flows that reach it. */
export interface PiiSink {
  readonly module: ModuleNode;
  readonly flows: readonly PiiFlow[];
}

/** External (non-Make) modules that receive personal data. */
export function externalPiiSinks(analysis: Analysis): PiiSink[] {
  const df = analysis.dataflow();
  const out: PiiSink[] = [];
  for (const m of analysis.graph.modules) {
    const cls = classify(m);
    if (!cls.external && !cls.http) continue;
    const flows = df.piiInputs(m.id);
    if (flows.length > 0) out.push({ module: m, flows });
  }
  return out;
}

/**
 * External modules that receive personal data by what it is (`risk/sensitivity.ts`
 * `identifyingFlows`: free text that identifies no one is left out), as PRIV-1, PRIV-4 and PRIV-6
 * judge it (issue 32). Computed once per evaluation.
 */
export function personalDataSinks(analysis: Analysis): readonly PiiSink[] {
  return analysis.shared(PERSONAL_SINKS, () =>
    externalPiiSinks(analysis)
      .map((s) => ({ module: s.module, flows: identifyingFlows(analysis, s.flows) }))
      .filter((s) => s.flows.length > 0),
  );
}

const PERSONAL_SINKS = new SharedKey<readonly PiiSink[]>('personal data sinks by content');

/** The evidence path of personal data reaching `sink`: the module the first flow comes from, then the sink. */
export function piiPath(sink: ModuleNode, flows: readonly PiiFlow[], note: string): EvidenceStep[] {
  const from = flows[0]!.from.moduleId;
  return [
    { moduleId: from, role: 'source', note: describeFlows(flows.slice(0, 1)) },
    { moduleId: sink.id, role: 'sink', note },
  ];
}

/** `e-mail address \`1.email\`, \`2.text\` of an incoming e-mail (\`google-email:TriggerNewEmail\`)` */
export function describeFlows(flows: readonly PiiFlow[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const f of flows) {
    const ref = `\`${f.from.moduleId}.${f.from.path}\``;
    const label =
      f.kind === 'personal'
        ? f.origin
          ? `${ref} of ${f.origin}`
          : ref
        : `${PII_KIND_LABELS[f.kind]} ${ref}${f.origin ? ` (${f.origin})` : ''}`;
    if (!seen.has(label)) {
      seen.add(label);
      parts.push(label);
    }
  }
  return parts.slice(0, 4).join(', ') + (parts.length > 4 ? `, +${parts.length - 4} more` : '');
}

/** What the operator keeps or does with an account at a well-known service reached over HTTP. */
export type OwnServiceKind = 'database' | 'records' | 'messaging';

/** A well-known service the scenario reaches with the operator's own account. */
export interface OwnService {
  readonly name: string;
  readonly kind: OwnServiceKind;
}

/**
 * Well-known services the scenario reaches over HTTP with the operator's own account, by literal
 * host (exact, or a tenant subdomain for a leading `.`) and, where the host serves other purposes,
 * path. Each is a processor (GDPR Art. 28) like any SaaS app the scenario reaches through a Make
 * connection, and the host names it: the recipient is known, not an undisclosed third party.
 * - `database`: hosted databases and backends-as-a-service, whose host names one project's database
 *   that only its holder's credentials open (Firebase Realtime Database REST
 *   `https://<db>.firebaseio.com/<path>.json`, regional `<db>.<region>.firebasedatabase.app`; Cloud
 *   Firestore; Supabase `https://<ref>.supabase.co/rest/v1`; MongoDB Atlas Data API; Xano; Back4App;
 *   Appwrite; Upstash; Fauna; Hasura Cloud). Corpus: make `luxisoft-automatizacion-venta`,
 *   `luxisoft-webhook-pago`.
 * - `records`: record stores and CRMs of the operator's workspace (Airtable, Baserow, Notion, Google
 *   Sheets API, monday.com, ClickUp, webCRM, HubSpot, Pipedrive, Salesforce, Zoho CRM, Close, Attio).
 *   Corpus: make-extra `fostercare123-infomail-webcrm-automation` (webCRM persons and organisations).
 * - `messaging`: the operator's messaging account sending to a person (WhatsApp Cloud API
 *   `graph.facebook.com/<v>/<phone id>/messages`, Z-API, Twilio, Telegram Bot API, Vonage): the number
 *   is the addressee. Corpus: make `luxisoft-automatizacion-venta` 45–49, 72.
 */
const OWN_SERVICE_HOSTS: readonly (readonly [host: string, name: string, kind: OwnServiceKind, path?: RegExp])[] = [
  ['.firebaseio.com', 'Firebase Realtime Database', 'database'],
  ['.firebasedatabase.app', 'Firebase Realtime Database', 'database'],
  ['firestore.googleapis.com', 'Cloud Firestore', 'database'],
  ['.supabase.co', 'Supabase', 'database'],
  ['.supabase.in', 'Supabase', 'database'],
  ['data.mongodb-api.com', 'MongoDB Atlas', 'database'],
  ['.data.mongodb-api.com', 'MongoDB Atlas', 'database'],
  ['.xano.io', 'Xano', 'database'],
  ['parseapi.back4app.com', 'Back4App', 'database'],
  ['cloud.appwrite.io', 'Appwrite', 'database'],
  ['.cloud.appwrite.io', 'Appwrite', 'database'],
  ['.upstash.io', 'Upstash', 'database'],
  ['db.fauna.com', 'Fauna', 'database'],
  ['.hasura.app', 'Hasura', 'database'],
  ['api.airtable.com', 'Airtable', 'records'],
  ['api.baserow.io', 'Baserow', 'records'],
  ['api.notion.com', 'Notion', 'records'],
  ['sheets.googleapis.com', 'Google Sheets', 'records'],
  ['api.monday.com', 'monday.com', 'records'],
  ['api.clickup.com', 'ClickUp', 'records'],
  ['api.webcrm.com', 'webCRM', 'records'],
  ['api.hubapi.com', 'HubSpot', 'records'],
  ['api.pipedrive.com', 'Pipedrive', 'records'],
  ['.pipedrive.com', 'Pipedrive', 'records'],
  ['.my.salesforce.com', 'Salesforce', 'records'],
  ['www.zohoapis.com', 'Zoho CRM', 'records'],
  ['www.zohoapis.eu', 'Zoho CRM', 'records'],
  ['api.close.com', 'Close', 'records'],
  ['api.attio.com', 'Attio', 'records'],
  ['graph.facebook.com', 'WhatsApp Cloud API', 'messaging', /^\/v\d+(?:\.\d+)?\/[^/]+\/messages(?:[?#]|$)/],
  ['api.z-api.io', 'Z-API', 'messaging'],
  ['api.twilio.com', 'Twilio', 'messaging'],
  ['api.telegram.org', 'Telegram Bot API', 'messaging'],
  ['api.nexmo.com', 'Vonage', 'messaging'],
];

/** The well-known service an HTTP module reaches with the operator's account (`luxisoft-default-rtdb.firebaseio.com` → Firebase Realtime Database, `database`), `null` for any other address. */
export function ownServiceOf(m: ModuleNode): OwnService | null {
  const url = moduleUrl(m);
  const host = url ? urlHost(url) : null;
  if (url === null || host === null) return null;
  const path = url.replace(/^\s*[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  for (const [h, name, kind, re] of OWN_SERVICE_HOSTS) {
    if (!(h.startsWith('.') ? host.endsWith(h) : host === h)) continue;
    if (re && !re.test(path)) continue;
    return { name, kind };
  }
  return null;
}
