/**
 * The make-extra corpus (25 hard cases for issue 14) through the engine: every export evaluates
 * (custom apps included), and AI-1 matches the MANIFEST's category 3 exactly: AI output sent to
 * third parties unreviewed is high, the contrasts (drafts, reviewed posts, answers to the asker,
 * internal-only) are never high. DI-1 never reports an AI module on either corpus, and is high only for money.
 */
import assert from 'node:assert/strict';
import { evaluateBlueprint, type ScenarioEvaluation } from '../../src/engine/index.js';
import { corpusFacts, corpusJson, corpusSuite, jsonPathToPointer, type CorpusName } from '../helpers/corpus.js';

const results = new Map<string, ScenarioEvaluation>();
function evaluateCorpora(): void {
  for (const corpus of ['make', 'make-extra'] as CorpusName[]) {
    for (const f of corpusFacts(corpus)) {
      const r = evaluateBlueprint(corpusJson(f.file, corpus), { scenarioId: f.file });
      if (r.ok) results.set(`${corpus}/${f.file}`, r.evaluation);
    }
  }
}
const findings = (key: string, code: string) =>
  results.get(key)?.violations.find((v) => v.policy === code)?.failing_modules ?? [];

/**
 * make-extra MANIFEST category 3, "sent without review": file → module ids. The MANIFEST also names
 * vikasvikasgl Telegram 13, but it goes to one fixed private chat (a positive chat id: the bot
 * owner's own), which the issue 14 review put at low at most: not a third party (checked below). Issue 32
 * (risk model) leaves out two more: `aman-pr` 12 sends to a literal address, the owner's by the
 * model's rule, and `tabinda-fatima` 5 replies to the trigger mail's own sender (low, like a chat reply).
 */
const SENT_UNREVIEWED: Readonly<Record<string, readonly string[]>> = {
  'tbauer79999-integration-airtable-openai-twilio.blueprint.json': ['3'],
  'vikasvikasgl-oss-integration-google-sheets.blueprint.json': ['12'],
};
/** Category 3 contrasts: drafts, reviewed posts, internal-only (not reported) and answers to the asker (low at most). */
const CONTRASTS: Readonly<Record<string, 'none' | 'low'>> = {
  'aman-pr-email-automation.blueprint.json': 'none',
  'tabinda-fatima-integration-gmail-openai-google-sheets-tools.blueprint.json': 'low',
  'igorshkov93-ai-email-triage-system.blueprint.json': 'none',
  'wade1508-integration-gmail-openai.blueprint.json': 'none',
  'mbk-ai-social-media-automation-2.blueprint.json': 'none',
  'andi-now-arbeitgeberprofil-erstellen.blueprint.json': 'none',
  'guny524-codyssey-b2-2.blueprint.json': 'none',
  'gr3yy-d3v-integracao-resposta-openai-gmail.blueprint.json': 'none',
  '20mss012-newcheckavailability.blueprint.json': 'low',
  // SMS replies to the sender of the inbound SMS that started the run (issue 32: the sender's audience).
  'tbauer79999-integration-webhooks-openai.blueprint.json': 'low',
};

corpusSuite('AI-1 and DI-1 on the make and make-extra corpora', ['make', 'make-extra'], ({ it, before }) => {
  before(evaluateCorpora);

  it('evaluates all 25 make-extra blueprints, custom apps included, without an engine or policy error', () => {
    const extra = corpusFacts('make-extra');
    assert.equal(extra.length, 25);
    for (const f of extra) {
      const ev = results.get(`make-extra/${f.file}`);
      assert.ok(ev, `${f.file} was rejected`);
      assert.deepEqual(ev.policy_errors, [], f.file);
    }
  });

  it('AI-1 reports exactly the AI output sent to third parties unreviewed at high (make-extra category 3)', () => {
    for (const f of corpusFacts('make-extra')) {
      const high = findings(`make-extra/${f.file}`, 'AI-1')
        .filter((x) => x.severity === 'high')
        .map((x) => x.module_id)
        .sort();
      assert.deepEqual(high, [...(SENT_UNREVIEWED[f.file] ?? [])].sort(), f.file);
    }
  });

  it('AI-1 never reports the contrasts at high: drafts, reviewed posts and internal notifications not at all, answers to the asker at low', () => {
    for (const [file, want] of Object.entries(CONTRASTS)) {
      const got = findings(`make-extra/${file}`, 'AI-1');
      if (want === 'none')
        assert.deepEqual(
          got.map((x) => x.module_id),
          [],
          file,
        );
      else assert.ok(got.length > 0 && got.every((x) => x.severity === 'low'), file);
    }
    const tbauer = findings('make-extra/tbauer79999-integration-webhooks-openai.blueprint.json', 'AI-1').map(
      (x) => x.module_id,
    );
    assert.ok(!tbauer.includes('19'), 'the hot-lead alert e-mail 19 goes to the owner');
    const vikas = findings('make-extra/vikasvikasgl-oss-integration-google-sheets.blueprint.json', 'AI-1').map(
      (x) => x.module_id,
    );
    assert.ok(!vikas.includes('13'), "Telegram 13 writes to one fixed private chat, the bot owner's");
  });

  /** AI modules that act rather than compute: Vapi places a phone call by a voice agent (make-extra MANIFEST, category 2). */
  const VOICE_CALLS: Readonly<Record<string, readonly string[]>> = {
    'alozieai-civicrm-contact-pulling-and-call-making.blueprint.json': ['/flow/9'],
  };

  it('DI-1 never reports an AI completion, and reports at high only payments and changes after one (both corpora)', () => {
    for (const corpus of ['make', 'make-extra'] as CorpusName[]) {
      for (const f of corpusFacts(corpus)) {
        const di1 = findings(`${corpus}/${f.file}`, 'DI-1');
        const ai = new Set(f.ai_modules.map(jsonPathToPointer).filter((p) => !(VOICE_CALLS[f.file] ?? []).includes(p)));
        for (const x of di1)
          assert.ok(!ai.has(x.evidence?.pointer ?? ''), `${corpus}/${f.file}: DI-1 reports AI module ${x.module_id}`);
        for (const x of di1.filter((y) => y.severity === 'high'))
          assert.match(x.reason, /moves money|after a payment/, `${corpus}/${f.file} ${x.module_id}`);
      }
    }
  });
});
