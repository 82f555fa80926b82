/**
 * Issue 14 acceptance set for SEC-5 and DI-1: the reviewer's verdicts on every high finding of the
 * two policies on both corpora. "true" stays high, "overstated" drops to medium, "false" drops to low.
 * One documented exception: make `nonsosky` (verdict "overstated") is low by the rule for webhooks
 * whose payload is never used (docs/engine.md, SEC-5).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint, type ScenarioEvaluation } from '../../src/engine/index.js';
import { corpusFacts, corpusJson, type CorpusName } from '../helpers/corpus.js';

const results = new Map<string, ScenarioEvaluation>();
for (const corpus of ['make', 'make-extra'] as CorpusName[]) {
  for (const f of corpusFacts(corpus)) {
    const r = evaluateBlueprint(corpusJson(f.file, corpus), { scenarioId: f.file });
    if (r.ok) results.set(`${corpus}/${f.file.replace('.blueprint.json', '')}`, r.evaluation);
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

it('SEC-5 reports each reviewed webhook at the severity of the reviewer\'s verdict', () => {
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
