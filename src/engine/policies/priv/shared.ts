/** @module engine/policies/priv/shared: where personal data goes (shared by the PRIV policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { PiiFlow } from '../../dataflow.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { PII_KIND_LABELS } from '../../pii.js';

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

/** `e-mail address \`1.email\`, \`2.text\` of an incoming e-mail (\`google-email:TriggerNewEmail\`)` */
export function describeFlows(flows: readonly PiiFlow[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const f of flows) {
    const ref = `\`${f.from.moduleId}.${f.from.path}\``;
    const label = f.kind === 'personal' ? (f.origin ? `${ref} of ${f.origin}` : ref) : `${PII_KIND_LABELS[f.kind]} ${ref}${f.origin ? ` (${f.origin})` : ''}`;
    if (!seen.has(label)) { seen.add(label); parts.push(label); }
  }
  return parts.slice(0, 4).join(', ') + (parts.length > 4 ? `, +${parts.length - 4} more` : '');
}

/**
 * Hosted databases and backends-as-a-service reached over HTTP, by host (exact, or a tenant
 * subdomain for a leading `.`). The host names one project's database, which only its holder's
 * credentials open: the operator's own record store, run by a processor (GDPR Art. 28) like any
 * SaaS store, not a disclosure to an unknown recipient. Sources: the vendors' REST API references
 * (Firebase Realtime Database REST `https://<db>.firebaseio.com/<path>.json`, regional
 * `<db>.<region>.firebasedatabase.app`; Cloud Firestore REST; Supabase `https://<ref>.supabase.co/rest/v1`;
 * MongoDB Atlas Data API; Airtable Web API; Xano; Back4App Parse REST; Appwrite; Baserow; Upstash
 * REST; Fauna; Hasura Cloud). Corpus: make `luxisoft-automatizacion-venta`, `luxisoft-webhook-pago`.
 */
const DATA_STORE_HOSTS: readonly (readonly [host: string, name: string])[] = [
  ['.firebaseio.com', 'Firebase Realtime Database'], ['.firebasedatabase.app', 'Firebase Realtime Database'],
  ['firestore.googleapis.com', 'Cloud Firestore'], ['.supabase.co', 'Supabase'], ['.supabase.in', 'Supabase'],
  ['data.mongodb-api.com', 'MongoDB Atlas'], ['.data.mongodb-api.com', 'MongoDB Atlas'], ['api.airtable.com', 'Airtable'],
  ['.xano.io', 'Xano'], ['parseapi.back4app.com', 'Back4App'], ['cloud.appwrite.io', 'Appwrite'], ['.cloud.appwrite.io', 'Appwrite'],
  ['api.baserow.io', 'Baserow'], ['.upstash.io', 'Upstash'], ['db.fauna.com', 'Fauna'], ['.hasura.app', 'Hasura'],
];

/** The hosted database an HTTP module calls (`luxisoft-default-rtdb.firebaseio.com` → `Firebase Realtime Database`), `null` for any other host. */
export function dataStoreOf(m: ModuleNode): string | null {
  const url = moduleUrl(m);
  const host = url ? urlHost(url) : null;
  if (host === null) return null;
  for (const [h, name] of DATA_STORE_HOSTS) if (h.startsWith('.') ? host.endsWith(h) : host === h) return name;
  return null;
}
