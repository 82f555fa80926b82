/**
 * Issue 32, section 2: the general rules behind the risk model, each on small blueprints of our own
 * (module names and mapper keys as Make exports them, values invented): taint follows fields, not
 * bundles; taint survives hops (a data store write and read, a document conversion, a file download
 * and an upload to an AI provider, an aggregator) and special categories (health, tax, identity, CV)
 * sent to a model are PRIV-6; a sink on another router route is not reached; an access check by a
 * token look-up is a check (SEC-5); an ignored failure that the trigger selects again, or of a
 * notification, loses nothing (DI-2). Every finding carries its risk row and evidence path.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../../src/engine/index.js';
import { Analysis } from '../../../src/engine/analysis.js';
import { POLICY_BY_CODE } from '../../../src/engine/index.js';
import { impactOf } from '../../../src/engine/risk/impact.js';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const handled = (mod: Mod): Mod => ({ ...mod, onerror: breakHandler(Number(mod['id']) + 100) });
const openai = (id: number, content: string) =>
  handled(
    m(id, 'openai-gpt-3:CreateCompletion', {
      mapper: { model: 'gpt-4o-mini', max_tokens: '300', select: 'chat', messages: [{ role: 'user', content }] },
    }),
  );
const formHook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 11, maxResults: 1 } });
const sheet = m(1, 'google-sheets:watchRows', { parameters: { __IMTCONN__: 3, sheetId: 'Leads', limit: 10 } });

/** The findings of one policy, evaluated directly (risk rows and paths are on the policy's findings). */
function findingsOf(flow: Mod[], code: string) {
  const r = parseBlueprint(bp(flow));
  assert.ok(r.ok);
  return POLICY_BY_CODE.get(code)!.evaluate(new Analysis(r.graph), {})?.findings ?? [];
}

describe('taint follows fields, not bundles', () => {
  it('a prompt that holds only a company name is not charged with the contact name and e-mail of the same row', () => {
    const contacts = m(1, 'hubspotcrm:WatchCRMObjects', {
      parameters: { __IMTCONN__: 5, objectType: 'contacts' },
    });
    const each = m(2, 'builtin:BasicFeeder', { mapper: { array: '{{1.results}}' } });
    passes(bp([contacts, each, openai(3, 'Research the company {{2.company}} for our sales team')]), 'PRIV-1');
    assert.deepEqual(
      failingIds(bp([contacts, each, openai(3, 'Write to {{2.email}} about {{2.company}}')]), 'PRIV-1'),
      ['3'],
    );
  });

  it("a model's own earlier output about a topic is not personal data because the row also holds an e-mail", () => {
    const row = m(1, 'google-sheets:watchRows', {
      parameters: { __IMTCONN__: 3, sheetId: 'Form Responses 1', limit: 10 },
      metadata: {
        designer: { x: 0, y: 0 },
        interface: [
          { name: '0', type: 'text', label: 'Timestamp (A)' },
          { name: '1', type: 'text', label: 'Which topic should we write about? (B)' },
          { name: '2', type: 'text', label: 'Email (C)' },
        ],
      },
    });
    const ideas = openai(2, 'Five ideas about {{1.`1`}}');
    const post = openai(3, 'Expand the first idea: {{2.choices[].message.content}}');
    passes(bp([row, ideas, post]), 'PRIV-1');
  });
});

describe('taint survives hops (issue 32), and special categories sent to a model are PRIV-6', () => {
  it('a data store write and a later read of the same store carry the field (a health answer kept as history)', () => {
    const save = m(2, 'datastore:AddRecord', {
      parameters: { datastore: 4411 },
      mapper: { key: '{{1.email}}', data: { symptoms: '{{1.symptoms}}', topic: '{{1.topic}}' }, overwrite: true },
    });
    const load = m(3, 'datastore:GetRecord', { parameters: { datastore: 4411 }, mapper: { key: '{{1.email}}' } });
    const viaStore = findingsOf([formHook, save, load, openai(4, 'Advise on {{3.symptoms}}')], 'PRIV-6');
    assert.deepEqual(
      viaStore.map((f) => [f.moduleId, f.severity, f.risk?.id]),
      [['4', 'critical', 'R15']],
    );
    assert.deepEqual(
      viaStore[0]!.path?.map((s) => [s.moduleId, s.role]),
      [
        ['1', 'source'],
        ['3', 'step'],
        ['4', 'sink'],
      ],
    );
    passes(bp([formHook, save, load, openai(4, 'Ideas about {{3.topic}}')]), 'PRIV-6');
  });

  it('a CV link downloaded, converted to text by a conversion service and sent to a model is a CV (critical at both processors, not at the download); so is a file uploaded to the provider', () => {
    const download = handled(m(2, 'http:ActionGetFile', { mapper: { url: '{{1.resume_url}}', method: 'get' } }));
    const text = handled(m(3, 'pdf-co:postPdfInfo', { mapper: { url: '{{2.fileName}}', file: '{{2.data}}' } }));
    const review = openai(4, 'Score this candidate: {{3.body}}');
    const viaPdf = findingsOf([formHook, download, text, review], 'PRIV-6');
    assert.deepEqual(
      viaPdf.map((f) => [f.moduleId, f.severity, f.risk?.id, f.risk?.sensitivity]),
      [
        ['3', 'critical', 'R15', 'special-category'],
        ['4', 'critical', 'R15', 'special-category'],
      ],
    );
    assert.match(violationOf(bp([formHook, download, text, review]), 'PRIV-6')!.failing_modules[1]!.reason, /CV/);
    const upload = handled(
      m(3, 'gemini-ai:uploadAFile', { mapper: { file_data: '{{2.data}}', file_name: '{{2.fileName}}' } }),
    );
    const ask = handled(
      m(4, 'gemini-ai:createACompletionGeminiPro', {
        mapper: {
          model: 'gemini-2.5-flash',
          contents: [{ role: 'user', parts: [{ type: 'file', file_data: { file_uri: '{{3.uri}}' } }] }],
        },
      }),
    );
    assert.deepEqual(
      failingIds(bp([formHook, download, upload, ask]), 'PRIV-6'),
      ['3', '4'],
      'the upload sends it, the prompt uses it',
    );
  });

  it('an answer to a form question about tax or identity documents is special data, through an aggregator too', () => {
    const responses = m(1, 'google-forms:watchResponses', {
      parameters: { __IMTCONN__: 4, formId: 'abc' },
      metadata: {
        designer: { x: 0, y: 0 },
        interface: [
          {
            name: 'answers',
            type: 'collection',
            spec: [
              { name: '1a2b3c4d', label: 'Upload your last tax return', type: 'text' },
              { name: '5e6f7a8b', label: 'Passport number', type: 'text' },
            ],
          },
        ],
      },
    });
    const joined = m(2, 'util:TextAggregator', {
      parameters: { feeder: 1 },
      mapper: { value: '{{1.answers.`1a2b3c4d`.textAnswers.answers[].value}}' },
    });
    const tax = findingsOf([responses, joined, openai(3, 'Check {{2.text}}')], 'PRIV-6');
    assert.deepEqual(
      tax.map((f) => [f.moduleId, f.severity]),
      [['3', 'critical']],
    );
    assert.deepEqual(
      failingIds(bp([responses, openai(2, 'Verify {{1.answers.`5e6f7a8b`.textAnswers.answers[].value}}')]), 'PRIV-6'),
      ['2'],
    );
  });

  it('a summary that a model returns under `resume` (French for summary) is not a CV', () => {
    const summary = openai(2, 'Résumé en JSON: {{1.`0`}}');
    const parsed = m(3, 'json:ParseJSON', { mapper: { json: '{{2.choices[].message.content}}' } });
    passes(bp([sheet, summary, parsed, openai(4, 'Translate {{3.resume}}')]), 'PRIV-6');
  });
});

describe('findings name the right module: a sink on another router route is not reached', () => {
  it("AI output of route 1 is not delivered by route 2's e-mail, and a prompt on route 2 does not get route 1's data", () => {
    const flow = [
      formHook,
      m(2, 'builtin:BasicRouter', {
        routes: [
          { flow: [openai(3, 'Write a reply to {{1.message}} from {{1.email}}')] },
          {
            flow: [
              handled(
                m(4, 'google-email:sendAnEmail', {
                  mapper: { to: ['{{1.email}}'], subject: 'Hi', bodyType: 'rawHtml', content: '{{3.result}}' },
                }),
              ),
              openai(5, 'Classify {{3.result}}'),
            ],
          },
        ],
      }),
    ];
    passes(bp(flow), 'AI-1');
    assert.deepEqual(failingIds(bp(flow), 'PRIV-1'), ['3']);
    assert.equal(
      violationOf(bp(flow), 'AI-2')?.failing_modules.some((f) => f.module_id === '5'),
      false,
    );
  });
});

describe('SEC-5: an access check by looking up an unguessable token is a check', () => {
  const lookup = m(2, 'datastore:SearchRecord', {
    parameters: { datastore: 77, limit: 1, continueWhenNoRes: true },
    mapper: { filter: [[{ a: 'token', b: '{{1.access_token}}', o: 'text:equal' }]] },
  });
  const row = (id: number, filter: unknown) =>
    handled(
      m(id, 'google-sheets:addRow', {
        mapper: { sheetId: 'Orders', values: { 0: '{{1.item}}', 1: '{{1.qty}}' } },
        ...(filter ? { filter } : {}),
      }),
    );
  const found = { name: 'token known', conditions: [[{ a: '{{2.key}}', o: 'exist' }]] };

  it('passes when a record search keyed by the caller token is followed by a filter on its result before anything acts', () => {
    passes(bp([formHook, lookup, row(3, found)]), 'SEC-5');
  });

  it('still reports when the result is not filtered, when the key is not a token, or when a module acts before the check', () => {
    assert.deepEqual(failingIds(bp([formHook, lookup, row(3, null)]), 'SEC-5'), ['1']);
    const byName = m(2, 'datastore:SearchRecord', {
      parameters: { datastore: 77, limit: 1 },
      mapper: { filter: [[{ a: 'name', b: '{{1.name}}', o: 'text:equal' }]] },
    });
    assert.deepEqual(failingIds(bp([formHook, byName, row(3, found)]), 'SEC-5'), ['1']);
    const early = row(5, null);
    assert.deepEqual(failingIds(bp([formHook, early, lookup, row(3, found)]), 'SEC-5'), ['1']);
  });

  it('sets the risk row of what a forged call can do, with the webhook as the source of the path', () => {
    const target = handled(
      m(3, 'airtable:ActionUpdateRecords', { mapper: { id: '{{1.record_id}}', record: { Status: 'Paid' } } }),
    );
    const [f] = findingsOf([formHook, target], 'SEC-5');
    assert.equal(f!.risk?.id, 'R5');
    assert.equal(f!.risk?.trust, 'public-webhook');
    assert.deepEqual(
      f!.path?.map((s) => [s.moduleId, s.role]),
      [
        ['1', 'source'],
        ['3', 'sink'],
      ],
    );
  });
});

describe('DI-2: ignored failures that lose nothing', () => {
  const ignore = (id: number) => [m(id, 'builtin:Ignore')];
  const queue = m(1, 'google-sheets:filterRows', {
    parameters: { __IMTCONN__: 3 },
    mapper: { sheetId: 'Queue', filter: [[{ a: 'D', b: '', o: 'text:equal' }]] },
  });
  const update = (values: Record<string, string>) =>
    m(3, 'google-sheets:updateRow', {
      mapper: { sheetId: 'Queue', rowNumber: '{{1.`__ROW_NUMBER__`}}', values },
      onerror: ignore(30),
    });

  it('a write that would fill the status column the trigger selects on is re-selected next run: not reported', () => {
    passes(bp([queue, openai(2, 'Summarise {{1.`1`}}'), update({ 3: 'done', 2: '{{2.result}}' })]), 'DI-2');
  });

  it('a write that leaves the selecting column alone loses the change: high (R21)', () => {
    const [f] = findingsOf([queue, openai(2, 'Summarise {{1.`1`}}'), update({ 2: '{{2.result}}' })], 'DI-2');
    assert.deepEqual([f!.severity, f!.risk?.id], ['high', 'R21']);
    assert.deepEqual(
      f!.path?.map((s) => [s.moduleId, s.role]),
      [
        ['3', 'source'],
        ['30', 'sink'],
      ],
    );
  });

  it('a watch trigger does not select again: the same write is reported', () => {
    assert.deepEqual(failingIds(bp([sheet, update({ 3: 'done' })]), 'DI-2'), ['3']);
  });

  it('an ignored notification to the owner is low (R23); a message to a customer is medium (R22)', () => {
    const note = m(4, 'slack:CreateMessage', {
      mapper: { channel: 'C0123', channelType: 'public', text: 'New row {{1.`0`}}' },
      onerror: ignore(40),
    });
    const customer = m(5, 'google-email:sendAnEmail', {
      mapper: { to: ['{{1.`2`}}'], subject: 'Hello', bodyType: 'rawHtml', content: 'Thanks' },
      onerror: ignore(50),
    });
    const rows = findingsOf([sheet, note, customer], 'DI-2').map((f) => [f.moduleId, f.severity, f.risk?.id]);
    assert.deepEqual(rows, [
      ['4', 'low', 'R23'],
      ['5', 'medium', 'R22'],
    ]);
  });
});

describe('an agent acts through its tools, not because it is called an agent', () => {
  const local = (tools: unknown[]) => ({
    ...m(2, 'ai-local-agent:RunLocalAIAgent', {
      mapper: { message: '{{1.text}}', outputType: 'text', defaultModel: 'gpt-5-nano' },
    }),
    tools,
    onerror: breakHandler(102),
  });
  const answer = m(3, 'gateway:WebhookRespond', { mapper: { status: '200', body: '{{2.response}}' } });

  it('a local agent whose export lists no tools only answers (medium), like any model', () => {
    const v = violationOf(bp([formHook, local([]), answer]), 'AI-2');
    assert.equal(v?.failing_modules[0]?.severity, 'medium');
  });

  it('a local agent with tools the engine does not see, or a Make AI agent configured outside the blueprint, acts (R4, high)', () => {
    const send = m(9, 'google-email:sendAnEmail', { mapper: { to: ['{{2.to}}'], content: '{{2.body}}' } });
    const [f] = findingsOf([formHook, local([{ name: 'Send mail', flow: [send] }]), answer], 'AI-2');
    const parsed = parseBlueprint(bp([formHook, local([{ name: 'Send mail', flow: [send] }]), answer]));
    assert.ok(parsed.ok);
    // Unseen tools make the agent act (R4); once the parser walks `tools[].flow`, the tool's own relay (R6) does.
    assert.equal(f!.severity, 'high');
    assert.equal(f!.risk?.id, parsed.graph.byId.has('9') ? 'R6' : 'R4');
    const remote = handled(m(2, 'ai-agent:RunAnAIAgent', { mapper: { agent: 'a1b2', messages: ['{{1.text}}'] } }));
    const [g] = findingsOf([formHook, remote, answer], 'AI-2');
    assert.deepEqual([g!.severity, g!.risk?.id], ['high', 'R4']);
  });
});

describe('impact of an action (risk/impact.ts)', () => {
  it('reads a delete, a trash, a payment, a share, a send, a write and a look-up from the module table', () => {
    const r = parseBlueprint(
      bp([
        sheet,
        m(2, 'google-drive:deleteAFile', { mapper: { fileId: '{{1.`0`}}' } }),
        m(3, 'google-email:deleteAnEmail', { mapper: { messageId: '{{1.`0`}}', permanent: false } }),
        m(4, 'stripe:createCharge', { mapper: { amount: '100', currency: 'eur' } }),
        m(5, 'google-drive:shareAFile', { mapper: { fileId: '{{1.`0`}}', role: 'writer' } }),
        m(6, 'twilio:SendSMS', { mapper: { to: '{{1.`1`}}', body: 'hi' } }),
        m(7, 'airtable:ActionCreateRecord', { mapper: { record: { Name: '{{1.`0`}}' } } }),
        m(8, 'airtable:ActionSearchRecords', { mapper: { formula: '{Name}' } }),
      ]),
    );
    assert.ok(r.ok);
    const ids = ['2', '3', '4', '5', '6', '7', '8'];
    assert.deepEqual(
      ids.map((id) => impactOf(r.graph.byId.get(id)!)),
      ['delete', 'write-own', 'spend', 'change-access', 'send', 'write-own', 'read'],
    );
  });
});
