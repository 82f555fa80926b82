/**
 * Issue 14 acceptance set for SEC-5 and DI-1: the reviewer's verdicts on every high finding of the
 * two policies on both corpora. "true" stays high, "overstated" drops to medium, "false" drops to low.
 * One documented exception: make `nonsosky` (verdict "overstated") is low by the rule for webhooks
 * whose payload is never used (docs/engine.md, SEC-5). AI-2 and SEC-6: the severity each finding of
 * both corpora should have after review (docs/engine.md, "AI-2 severity" and "Request forgery").
 */
import assert from 'node:assert/strict';
import { evaluateBlueprint, type ScenarioEvaluation } from '../../src/engine/index.js';
import { corpusFacts, corpusJson, corpusSuite, type CorpusName } from '../helpers/corpus.js';

const results = new Map<string, ScenarioEvaluation>();
function evaluateCorpora(): void {
  for (const corpus of ['make', 'make-extra'] as CorpusName[]) {
    for (const f of corpusFacts(corpus)) {
      const r = evaluateBlueprint(corpusJson(f.file, corpus), { scenarioId: f.file });
      if (r.ok) results.set(`${corpus}/${f.file.replace('.blueprint.json', '')}`, r.evaluation);
    }
  }
}
const findings = (file: string, code: string) => {
  const evaluation = results.get(file);
  assert.ok(evaluation, `${file} not evaluated`);
  return evaluation.violations.find((v) => v.policy === code)?.failing_modules ?? [];
};

/** SEC-5: file → severity the reviewer's verdict asks for (true → high, overstated → medium, false → low). */
const SEC5_VERDICTS: Readonly<Record<string, 'high' | 'medium' | 'low'>> = {
  'make/6302mohamed-e-commerce-order-processing-invoice-logging-team-notificatio': 'high',
  'make/amrit-dash-amrit-s-cricket-bot': 'medium',
  'make/amrit-dash-update-apps-script-code-amrit-s-dsm-bot': 'high',
  'make/amrit-dash-webhook-based-dsm-reply-bot-amrit': 'high',
  'make/faizsolangi-integration-webhooks': 'medium',
  'make/j-ride-lux-ai-proposal-generator': 'medium',
  'make/joseph19820124-skool-static-page-scraper-a-0525': 'medium',
  'make/luxisoft-webhook-pago': 'high',
  'make/nonsosky-integration-webhooks-google-sheets-http-tools-slack-telegram-bo': 'low', // overstated; payload never used → low
  'make/sergibuendia-gtp-scaper-buscar-info-empresas-con-gpt-personalizado-parte': 'medium',
  'make/veracitylife-1-rag-email-jono-catliff': 'low',
  'make/veracitylife-calendar-availability-check': 'medium',
  'make/veracitylife-empty-integration': 'high',
  'make/vonage-community-vonage-tooling-mcp-integration': 'high',
  'make-extra/20mss012-newcheckavailability': 'medium',
  'make-extra/andi-now-arbeitgeberprofil-erstellen': 'medium',
  'make-extra/andi-now-employer-profile-automation-clean': 'medium',
  'make-extra/davjdion-integration-webhooks': 'medium',
  'make-extra/kairolopes-inbound-message-zapi-to-app': 'high',
  'make-extra/mihmol-lead-intake-ai-classifier': 'medium',
  'make-extra/tbauer79999-integration-webhooks-openai': 'high',
};

/** DI-1: the four permanent deletes the reviewer judged overstated (a failed delete loses nothing). */
const DI1_DELETES: readonly (readonly [string, string])[] = [
  ['make/cainisable-printify-info-checker', '704'],
  ['make/luxisoft-automatizacion-venta', '62'],
  ['make/mateipop-moto-drive-insta-facebook', '13'],
  ['make/nonsosky-integration-webhooks-google-sheets-http-tools-slack-telegram-bo', '3'],
];

corpusSuite("the reviewer's verdicts on both corpora", ['make', 'make-extra'], ({ it, before }) => {
  before(evaluateCorpora);

  it("SEC-5 reports each reviewed webhook at the severity of the reviewer's verdict", () => {
    for (const [file, want] of Object.entries(SEC5_VERDICTS)) {
      const got = findings(file, 'SEC-5');
      assert.equal(got.length, 1, file);
      assert.equal(got[0]!.severity, want, `${file}: ${got[0]!.reason}`);
    }
  });

  it('DI-1 reports the four reviewed permanent deletes at medium', () => {
    for (const [file, id] of DI1_DELETES) {
      const f = findings(file, 'DI-1').find((x) => x.module_id === id);
      assert.ok(f, `${file} ${id} not reported`);
      assert.equal(f.severity, 'medium', `${file} ${id}`);
    }
  });

  /**
   * AI-2: file → module → severity. High where the injected output can act (an agent, a message to an
   * outsider, a document sent to one), medium where it only answers the asker, reaches the team or is
   * stored for people to read. Every AI-2 finding of both corpora is listed.
   */
  const AI2_VERDICTS: Readonly<Record<string, Readonly<Record<string, 'high' | 'medium' | 'low'>>>> = {
    'make/j-ride-lux-ai-proposal-generator': { 2: 'medium' }, // proposal text in the Google Doc e-mailed back to the submission's own address (issue 32: sender, R12)
    'make/joseph19820124-skool-static-page-scraper-a-0525': { 7: 'low', 8: 'low', 14: 'medium' }, // webhook responses to the caller; 7, 8 on routes that cannot run
    'make/luxisoft-analizar-imagen': { 6: 'medium' }, // a customer's WhatsApp image, converted (issue 32: taint survives the conversion), described into the data store
    'make/sergibuendia-clinica-dental-presupuestos-automatizados': { 7: 'medium' }, // quote e-mailed back to the address typed in the same submission (issue 32: sender, R12)
    'make/veracitylife-1-rag-email-jono-catliff': { 5: 'medium' }, // cleaned e-mail stored in Airtable
    'make/veracitylife-calendar-availability-check': { 75: 'medium' }, // slots returned to the voice agent
    'make/vonage-community-vonage-tooling-mcp-integration': { 5: 'high' }, // Make AI agent with a WhatsApp tool
    'make-extra/20mss012-newcheckavailability': { 2: 'medium' }, // free/busy look-up returned to the caller
    'make-extra/aman-pr-email-automation': { 2: 'medium' }, // answer e-mailed to a literal address: the owner's (issue 32, row R12)
    'make-extra/andi-now-arbeitgeberprofil-erstellen': { 7: 'medium', 41: 'medium', 58: 'medium' }, // profile document for the team
    'make-extra/gr3yy-d3v-integracao-resposta-openai-gmail': { 5: 'medium' }, // quoted in internal e-mails
    'make-extra/guny524-codyssey-b2-2': { 9: 'medium' }, // Notion page
    'make-extra/igorshkov93-ai-email-triage-system': { 3: 'medium' }, // draft, ticket row, Slack, own label, own address
    'make-extra/mihmol-lead-intake-ai-classifier': { 2: 'medium' }, // Airtable row, Slack, gates a templated thank-you
    'make-extra/tabinda-fatima-integration-gmail-openai-google-sheets-tools': { 2: 'medium', 4: 'medium' }, // 4: reply to the trigger mail's sender (issue 32: sender, row R12); 2: only picks the instruction row model 4 reads
    'make-extra/tbauer79999-integration-webhooks-openai': { 2: 'medium' }, // SMS back to the webhook's From, the lead's own record (issue 32: sender, R12)
    'make-extra/wade1508-integration-gmail-openai': { 7: 'medium' }, // sheet row and a draft
  };

  /** SEC-6: file → module → severity; joseph19820124's credential-less GETs answer only the caller (reviewer: overstated at high). */
  const SEC6_VERDICTS: Readonly<Record<string, Readonly<Record<string, 'high' | 'medium' | 'low'>>>> = {
    'make/joseph19820124-skool-static-page-scraper-a-0525': { 2: 'low', 4: 'low', 12: 'medium' }, // 2, 4 on routes that cannot run
  };

  for (const [code, verdicts] of [
    ['AI-2', AI2_VERDICTS],
    ['SEC-6', SEC6_VERDICTS],
  ] as const) {
    it(`${code} reports exactly the reviewed findings of both corpora, each at its reviewed severity`, () => {
      for (const file of results.keys()) {
        const got = Object.fromEntries(findings(file, code).map((f) => [f.module_id, f.severity]));
        assert.deepEqual(
          got,
          { ...(verdicts[file] ?? {}) },
          `${file}: ${findings(file, code)
            .map((f) => f.reason)
            .join(' | ')}`,
        );
      }
    });
  }
});
