/**
 * Module classification (issue 14, items 7 and 9): what a module does comes from the module table by
 * app and action, consistently (AI completions and code compute, drafts are writes, a trash is
 * reversible), the verb only for apps the table does not know; AI apps in every spelling; both
 * corpora classified from the table.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseBlueprint, type ModuleNode } from '../../src/engine/index.js';
import { Analysis } from '../../src/engine/analysis.js';
import { classify, isAiApp } from '../../src/engine/blueprint/classify.js';
import { MODULE_TABLE, moduleRow } from '../../src/engine/blueprint/module-table.js';
import { bp, m, type Mod } from '../helpers/blueprints.js';
import { corpusFacts, corpusJson, corpusSuite, eachCorpus, jsonPathToPointer } from '../helpers/corpus.js';

/** Parses one module (after a trigger, so it is not taken for an instant trigger) and returns it. */
function node(mod: Mod): ModuleNode {
  const r = parseBlueprint(bp([m(1, 'google-sheets:watchRows', { parameters: { limit: 1 } }), mod]));
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  return r.graph.modules[1]!;
}
const effect = (mod: Mod) => {
  const c = classify(node(mod));
  return `${c.role}/${c.effect}${c.reversible ? '/reversible' : ''}${c.ai ? '/ai' : ''}`;
};

describe('module table', () => {
  const cases: [string, Mod, string][] = [
    [
      'an OpenAI completion computes',
      m(2, 'openai-gpt-3:CreateCompletion', {
        mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.text}}' }] },
      }),
      'compute/compute/ai',
    ],
    [
      'a Gemini completion computes',
      m(2, 'gemini-ai:createACompletionGeminiPro', { mapper: { model: 'gemini-2.5-flash', contents: [] } }),
      'compute/compute/ai',
    ],
    [
      'Claude simpleTextPrompt computes like createAMessage',
      m(2, 'anthropic-claude:simpleTextPrompt', { mapper: { prompt: '{{1.text}}' } }),
      'compute/compute/ai',
    ],
    [
      'an unknown action of an AI app computes',
      m(2, 'open-router:createAChatCompletion', { mapper: { model: 'x' } }),
      'compute/compute/ai',
    ],
    [
      'an LLM API called over HTTP computes',
      m(2, 'http:MakeRequest', {
        version: 4,
        mapper: { url: 'https://api.openai.com/v1/chat/completions', method: 'post' },
      }),
      'compute/compute/ai',
    ],
    [
      'a voice agent call over HTTP is a write (it phones people)',
      m(2, 'http:ActionSendData', { version: 3, mapper: { url: 'https://api.vapi.ai/call/phone', method: 'post' } }),
      'write/write/ai',
    ],
    [
      'a code module computes',
      m(2, 'custom-js:execute', { mapper: { code: 'return input.length' } }),
      'compute/compute',
    ],
    ['a PDF conversion computes', m(2, 'pdf-co:HTMLtoPDF', { mapper: { html: '{{1.html}}' } }), 'compute/compute'],
    [
      'a Gmail draft is a write, not a send',
      m(2, 'google-email:createADraft', { mapper: { to: ['{{1.email}}'], subject: 'Re', content: 'x' } }),
      'write/write',
    ],
    [
      'an IMAP draft is a write, not a send',
      m(2, 'email:ActionCreateDraft', { mapper: { to: ['{{1.email}}'], text: 'x' } }),
      'write/write',
    ],
    [
      'an e-mail is a send (role write)',
      m(2, 'google-email:sendAnEmail', { mapper: { to: ['a@b.org'], subject: 's', content: 'x' } }),
      'write/send',
    ],
    [
      'a mail deleted with permanent: false goes to the trash',
      m(2, 'google-email:deleteAnEmail', { version: 4, mapper: { messageId: '{{1.id}}', permanent: false } }),
      'delete/delete/reversible',
    ],
    [
      'a mail deleted with permanent: true is gone',
      m(2, 'google-email:deleteAnEmail', { version: 4, mapper: { messageId: '{{1.id}}', permanent: true } }),
      'delete/delete',
    ],
    [
      'a Drive file deleted is gone',
      m(2, 'google-drive:deleteAFile', { mapper: { file: '{{1.id}}', select: 'map' } }),
      'delete/delete',
    ],
    [
      'a moved mail can be moved back',
      m(2, 'google-email:ActionMoveEmail', { mapper: { id: '{{1.id}}', folder: 'INBOX', destinationFolder: 'Done' } }),
      'write/write/reversible',
    ],
    [
      'a Slack reaction can be removed',
      m(2, 'slack:AddReaction', { mapper: { name: 'eyes', channel: 'C1', timestamp: '{{1.ts}}' } }),
      'write/write/reversible',
    ],
    [
      'a generic API call follows its method',
      m(2, 'hubspotcrm:MakeAPICall', { mapper: { url: '/crm/v3/objects/contacts', method: 'GET' } }),
      'read/read',
    ],
    [
      'a mail trigger is a trigger',
      m(2, 'email:TriggerNewEmail', { parameters: { folder: 'INBOX' } }),
      'trigger/trigger',
    ],
    [
      'an unknown app falls back to the verb',
      m(2, 'acme-crm:createInvoice', { mapper: { amount: '1' } }),
      'write/write',
    ],
    [
      'an unknown app with a delivery verb sends',
      m(2, 'acme-crm:sendInvoice', { mapper: { to: '{{1.email}}' } }),
      'write/send',
    ],
    [
      'a custom app reads by its verb',
      m(2, 'app#courageousteams-614494:getOrder', { mapper: { id: '{{1.id}}' } }),
      'read/read',
    ],
    ['an unknown verb is other', m(2, 'acme-crm:frobnicate'), 'other/other'],
  ];
  for (const [what, mod, want] of cases) it(what, () => assert.equal(effect(mod), want));

  it('describes each send: channel, recipient fields, to-self, reply', () => {
    assert.deepEqual(classify(node(m(2, 'twilio:SendSMS', { mapper: { to: '{{1.phone}}', body: 'x' } }))).send, {
      channel: 'sms',
      recipients: ['to'],
      toSelf: false,
      reply: false,
    });
    assert.equal(classify(node(m(2, 'email:ActionSendMeEmail'))).send?.toSelf, true);
    assert.equal(
      classify(node(m(2, 'google-email:replyToAnEmail', { mapper: { threadId: '{{1.threadId}}' } }))).send?.reply,
      true,
    );
    assert.equal(
      classify(node(m(2, 'slack:CreateMessage', { mapper: { channel: 'C1', text: 'x' } }))).send?.channel,
      'team-chat',
    );
    assert.equal(classify(node(m(2, 'google-email:createADraft', { mapper: { to: ['x@y.org'] } }))).send, null);
  });

  it('leaves AI completions, code and conversions out of Analysis.writers()', () => {
    const r = parseBlueprint(
      bp([
        m(1, 'google-sheets:watchRows'),
        m(2, 'openai-gpt-3:CreateCompletion'),
        m(3, 'custom-js:execute'),
        m(4, 'pdf-co:HTMLtoPDF'),
        m(5, 'google-sheets:addRow'),
        m(6, 'slack:CreateMessage'),
        m(7, 'google-drive:deleteAFile'),
      ]),
    );
    assert.ok(r.ok);
    assert.deepEqual(
      new Analysis(r.graph).writers().map((x) => x.id),
      ['5', '6', '7'],
    );
  });

  it('answers from the table, not the verb, for every row', () => {
    for (const [app, rows] of Object.entries(MODULE_TABLE)) {
      for (const action of Object.keys(rows.actions)) assert.ok(moduleRow(app, action), `${app}:${action}`);
    }
    assert.equal(moduleRow('google-email', 'noSuchAction'), null);
    assert.equal(moduleRow('toString', 'x'), null);
  });
});

describe('AI apps', () => {
  it('recognises every spelling of an AI namespace', () => {
    for (const app of [
      'openai-gpt-3',
      'anthropic-claude',
      'gemini-ai',
      'perplexity-ai',
      'ai-tools',
      'ai-agent',
      'dumplingai',
      'vapi',
      'elevenlabs',
      'open-router',
      'openrouter',
      'OpenRouter',
      'open_router',
    ]) {
      assert.ok(isAiApp(app), app);
    }
    for (const app of ['google-sheets', 'airtable', 'slack', 'http', 'mailchimp', 'hubspotcrm', 'courageousteams'])
      assert.ok(!isAiApp(app), app);
  });
  it('does not make an app an AI call because its name ends in -ai or ai (issue 32: a scraper is not a model)', () => {
    for (const app of ['browse-ai', 'webscraping-ai', 'scrapingai', 'acme-gpt', 'kai']) assert.ok(!isAiApp(app), app);
    for (const app of ['ai-local-agent', 'make-ai-web-search']) assert.ok(isAiApp(app), app);
  });
});

eachCorpus('the blueprints of a corpus', ['fixtures', 'make', 'make-extra'], (corpus, { it }) => {
  it('every blueprint parses, every module in facts ai_modules is AI and no other module is', () => {
    let ai = 0;
    for (const f of corpusFacts(corpus)) {
      const r = parseBlueprint(corpusJson(f.file, corpus));
      assert.ok(r.ok, `${f.file}: ${r.ok ? '' : JSON.stringify(r.error)}`);
      const want = new Set(f.ai_modules.map(jsonPathToPointer));
      // The facts list the modules of the flow (MANIFEST.md "modules"), not the orphans left on the canvas.
      for (const x of r.graph.modules.filter((y) => y.container !== 'orphan'))
        assert.equal(classify(x).ai, want.has(x.pointer), `${f.file}: module ${x.id} ${x.type}`);
      ai += want.size;
    }
    assert.ok(ai > 0);
  });

  it("every module id of an app outside Make's built-ins is answered by the module table", () => {
    const builtIn = new Set([
      'builtin',
      'util',
      'json',
      'regexp',
      'markdown',
      'gateway',
      'http',
      'placeholder',
      'make',
      'scenario-service',
    ]);
    const missing = new Set<string>();
    for (const f of corpusFacts(corpus)) {
      const r = parseBlueprint(corpusJson(f.file, corpus));
      assert.ok(r.ok);
      for (const x of r.graph.modules)
        if (!builtIn.has(x.app) && !x.custom && !moduleRow(x.app, x.action)) missing.add(x.type);
    }
    assert.deepEqual([...missing], []);
  });
});

describe('custom apps', () => {
  it('fixtures: the custom-app blueprint parses with its custom modules', () => {
    const r = parseBlueprint(corpusJson('crm-custom-app-ifelse.blueprint.json', 'fixtures'));
    assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
    assert.ok(r.graph.modules.some((x) => x.custom && x.app === 'acme-crm' && x.action === 'watchContacts'));
  });
  corpusSuite('make-extra', ['make-extra'], ({ it }) => {
    it('the custom-app export parses with its custom modules', () => {
      const r = parseBlueprint(corpusJson('stdok-generate-report.blueprint.json', 'make-extra'));
      assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
      assert.ok(r.graph.modules.some((x) => x.custom && x.app === 'courageousteams' && x.action === 'getOrder'));
    });
  });
});

describe('docs', () => {
  it('docs/engine.md names every app of the module table', () => {
    const doc = readFileSync(new URL('../../../docs/engine.md', import.meta.url), 'utf8');
    for (const app of Object.keys(MODULE_TABLE)) assert.ok(doc.includes(`\`${app}\``), app);
  });
});
