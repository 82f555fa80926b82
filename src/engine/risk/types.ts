/**
 * @module engine/risk/types: the four dimensions of the risk model (issue 32, "Severity from one
 * documented risk model") and the shape of a finding's evidence path. The table that turns a
 * combination into a severity lives in `risk/model.ts` and in `docs/engine.md` ("Risk model").
 *
 * Shared by the policies (which say what they saw) and by `evaluate.ts`, SARIF and the console
 * (which show it). Plain data only: no policy logic here.
 */
import type { Severity } from '../severity.js';

/**
 * Who receives what a sink delivers.
 * - `owner`: the scenario owner or team: a fixed literal address or chat id (also when it passes
 *   through a set-variable module), the connection's own account, an internal channel.
 * - `sender`: the person who triggered the run gets the reply (a chat answer, a reply e-mail whose
 *   `to` is the trigger mail's own sender, a webhook response to its caller).
 * - `third-party`: people outside the team: an address, phone or chat id taken from the data.
 * - `public`: anyone: a published post, a public page.
 */
export type Audience = 'owner' | 'sender' | 'third-party' | 'public';

/**
 * How far the data at a source can be trusted (worst first).
 * - `public-webhook`: a webhook anyone who knows its URL can call;
 * - `inbound-message`: mail, chat, SMS or form text written by someone outside;
 * - `fetched-page`: a scraped or fetched page, an RSS item, a search result;
 * - `ai-output`: text a model wrote (a model fed another model's output is second-order injection);
 * - `internal-record`: the organisation's own sheets, CRM, database rows;
 * - `constant`: a literal written by the scenario's author.
 */
export type SourceTrust =
  'public-webhook' | 'inbound-message' | 'fetched-page' | 'ai-output' | 'internal-record' | 'constant';

/**
 * What the data is, by its content (never by the app it came from).
 * - `special-category`: GDPR Art. 9/10 data (health, biometrics, beliefs...), plus identity
 *   documents, tax and CV data;
 * - `personal`: names, contacts, free text a person wrote, finance;
 * - `credential`: a secret;
 * - `none`: nothing personal.
 */
export type Sensitivity = 'special-category' | 'personal' | 'credential' | 'none';

/** What an action does (least first): read, write own records, send to a third party, spend money or paid credits, change access, delete. */
export type Impact = 'read' | 'write-own' | 'send' | 'spend' | 'change-access' | 'delete';

/**
 * The risk-model row that set a finding's severity (issue 32): its stable id (`R7`), a one-line
 * statement of the row as in `docs/engine.md`, the severity it sets and the dimension values the
 * policy observed (absent when the row does not depend on them).
 */
export interface RiskRow {
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  readonly audience?: Audience;
  readonly trust?: SourceTrust;
  readonly sensitivity?: Sensitivity;
  readonly impact?: Impact;
}

/** One step of an evidence path: a module, its role, and what happens there (one short line). */
export interface EvidenceStep {
  readonly moduleId: string;
  readonly role: 'source' | 'step' | 'sink';
  readonly note?: string;
}
