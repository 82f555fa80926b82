/**
 * @module engine/hosts/service-hosts: well-known services a scenario reaches over HTTP with the
 * operator's own account (PRIV-2: the recipient is a known processor, not an undisclosed third party),
 * by host and, where the host serves other purposes, path; each with its API reference.
 */

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
export const OWN_SERVICE_HOSTS: readonly (readonly [
  host: string,
  name: string,
  kind: OwnServiceKind,
  path?: RegExp,
])[] = [
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

/** Each service's API reference (where its host and paths are documented), by the name the table gives it. */
export const SERVICE_REFERENCES: Readonly<Record<string, string>> = {
  'Firebase Realtime Database': 'https://firebase.google.com/docs/reference/rest/database',
  'Cloud Firestore': 'https://firebase.google.com/docs/firestore/use-rest-api',
  Supabase: 'https://supabase.com/docs/guides/api',
  'MongoDB Atlas': 'https://www.mongodb.com/docs/atlas/app-services/data-api/',
  Xano: 'https://docs.xano.com/',
  Back4App: 'https://www.back4app.com/docs/',
  Appwrite: 'https://appwrite.io/docs/references',
  Upstash: 'https://upstash.com/docs/redis/features/restapi',
  Fauna: 'https://docs.fauna.com/',
  Hasura: 'https://hasura.io/docs/',
  Airtable: 'https://airtable.com/developers/web/api/introduction',
  Baserow: 'https://baserow.io/api-docs',
  Notion: 'https://developers.notion.com/reference/intro',
  'Google Sheets': 'https://developers.google.com/sheets/api/reference/rest',
  'monday.com': 'https://developer.monday.com/api-reference/',
  ClickUp: 'https://clickup.com/api/',
  webCRM: 'https://api.webcrm.com/documentation/',
  HubSpot: 'https://developers.hubspot.com/docs/api/overview',
  Pipedrive: 'https://developers.pipedrive.com/docs/api/v1',
  Salesforce: 'https://developer.salesforce.com/docs/apis',
  'Zoho CRM': 'https://www.zoho.com/crm/developer/docs/api/',
  Close: 'https://developer.close.com/',
  Attio: 'https://developers.attio.com/',
  'WhatsApp Cloud API': 'https://developers.facebook.com/docs/whatsapp/cloud-api',
  'Z-API': 'https://developer.z-api.io/',
  Twilio: 'https://www.twilio.com/docs/usage/api',
  'Telegram Bot API': 'https://core.telegram.org/bots/api',
  Vonage: 'https://developer.vonage.com/en/api',
};
