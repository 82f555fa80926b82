/** The building blocks of issue 14 items 1, 2, 10, 11, 13: field names in context, the source table, prompt fields, and the data-flow API other policies build on. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../src/engine/index.js';
import { Analysis } from '../../src/engine/analysis.js';
import { piiKind } from '../../src/engine/pii.js';
import { sourceOf } from '../../src/engine/sources.js';
import { bodyPromptRefs } from '../../src/engine/prompt.js';
import type { ScenarioGraph } from '../../src/engine/blueprint/types.js';
import { bp, m, type Mod } from '../helpers/blueprints.js';

function graph(flow: Mod[]): ScenarioGraph {
  const r = parseBlueprint(bp(flow));
  assert.ok(r.ok);
  return r.graph;
}
const node = (mod: Mod) => graph([mod]).modules[0]!;

describe('piiKind: a field name is judged in its context', () => {
  it('recognises unambiguous names anywhere, ambiguous ones only under a person', () => {
    assert.equal(piiKind('customer_email'), 'email');
    assert.equal(piiKind('data.transaction.customer_data.full_name'), 'name');
    assert.equal(piiKind('name'), null);
    assert.equal(piiKind('contact.name'), 'name');
    assert.equal(piiKind('from.address'), 'email');
    assert.equal(piiKind('address'), null);
    assert.equal(piiKind('billing.address'), 'address');
  });
  it("never reads a thing's name as a person's (item 10)", () => {
    assert.equal(piiKind('repository.full_name'), null);
    assert.equal(piiKind('repository.owner.email'), 'email');
    assert.equal(piiKind('company.phone'), null);
    assert.equal(piiKind('file.name', 'person'), null);
  });
  it('reads card data only under a card object, never a bare expiry (item 13; PCI DSS v4.0 glossary)', () => {
    assert.equal(piiKind('pickup.expiry'), null);
    assert.equal(piiKind('card.expiry'), null);
    assert.equal(piiKind('card.number'), 'card');
    assert.equal(piiKind('card_number'), 'card');
    assert.equal(piiKind('number'), null);
  });
  it('treats references as references (`phone_number_id`, `thread_id`)', () => {
    assert.equal(piiKind('metadata.phone_number_id'), null);
    assert.equal(piiKind('phone_number_id', 'content'), null);
    assert.equal(piiKind('threadId', 'content'), null);
    assert.equal(piiKind('text', 'content'), 'personal');
    assert.equal(piiKind('text'), null);
    assert.equal(piiKind('text', 'person'), 'personal');
  });
});

describe('sourceOf: the source table', () => {
  const cases: [string, string | null, boolean | null][] = [
    ['email:TriggerNewEmail', 'mail', true],
    ['google-email:TriggerNewEmail', 'mail', true],
    ['google-email:triggerWatchNewEmails', 'mail', true],
    ['google-email:sendAnEmail', null, null],
    ['gateway:CustomMailHook', 'mail', true],
    ['typeform:WatchEventsWithResponses', 'form', true],
    ['google-forms:watchResponses', 'form', true],
    ['tally:watchNewResponse', 'form', true],
    ['webflow:watchFormSubmissions', 'form', true],
    ['hubspotcrm:getContact', 'contact', false],
    ['pipedrive:watchPersons', 'contact', false],
    ['hubspotcrm:getCompany', 'record', false],
    ['telegram:GetUpdates', 'chat', true],
    ['telegram:SendReplyMessage', null, null],
    ['whatsapp-business-cloud:watchEvents', 'chat', true],
    ['slack:SearchMessages', 'chat', true],
    ['google-calendar:ActionGetEvents', 'calendar', false],
    ['zendesk:watchTickets', 'ticket', true],
    ['rss:TriggerNewArticle', 'feed', true],
    ['apify:fetchDatasetItems', 'web', true],
    ['google-sheets:watchRows', null, null],
    ['openai-gpt-3:CreateCompletion', null, null],
  ];
  for (const [type, kind, untrusted] of cases) {
    it(`${type} → ${kind ?? 'not a source'}`, () => {
      const s = sourceOf(node(m(1, type)));
      assert.equal(s?.kind ?? null, kind);
      assert.equal(s?.untrusted ?? null, untrusted);
    });
  }
  it('reads a HubSpot CRM object module by its object type', () => {
    assert.equal(
      sourceOf(node(m(1, 'hubspotcrm:WatchCRMObjects', { parameters: { objectType: 'contacts' } })))?.kind,
      'contact',
    );
    assert.equal(
      sourceOf(node(m(1, 'hubspotcrm:WatchCRMObjects', { parameters: { objectType: 'deals' } })))?.kind,
      'record',
    );
  });
  it('reads an HTTP GET as a web page only for a run-time address, a scraper or a page that is not an API', () => {
    const get = (url: string, type = 'http:ActionSendData') =>
      sourceOf(node(m(1, type, { mapper: { url, method: 'get' } })))?.kind ?? null;
    assert.equal(get('{{3.link}}'), 'web');
    assert.equal(get('https://api.webscrapingapi.com/v2?url=x'), 'web');
    assert.equal(get('https://www.example-shop.com/products/list'), 'web');
    assert.equal(get('https://api.coingecko.com/api/v3/simple/price'), null);
    assert.equal(get('https://x.supabase.co/rest/v1/items'), null);
    assert.equal(get('https://drive.google.com/uc?export=download&id=1', 'http:DownloadFile'), null);
    assert.equal(sourceOf(node(m(1, 'http:ActionSendData', { mapper: { url: '{{3.link}}', method: 'post' } }))), null);
  });
});

describe('bodyPromptRefs: the prompt members of an LLM request body', () => {
  it('keeps references under messages and drops those under settings', () => {
    const refs = bodyPromptRefs(
      '{"model": "{{1.model}}", "temperature": {{1.t}}, "messages": [{"role": "user", "content": "Hi {{1.name}}"}], "user": "{{1.id}}"}',
    );
    assert.deepEqual(
      refs.map((r) => r.path),
      ['name'],
    );
  });
});

describe('DataFlow: untrusted and personal facts other policies build on', () => {
  const flow = [
    m(1, 'google-email:TriggerNewEmail'),
    m(2, 'util:SetVariable2', { mapper: { name: 'body', value: '{{1.text}}' } }),
    m(3, 'openai-gpt-3:CreateCompletion', {
      mapper: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: '{{2.body}}' }] },
    }),
    m(4, 'rss:TriggerNewArticle'),
  ];
  const df = new Analysis(graph(flow)).dataflow();
  it('marks sources and the transforms they feed as untrusted, and names the source', () => {
    assert.equal(df.isUntrusted('1'), true);
    assert.equal(df.isUntrusted('2'), true);
    assert.equal(df.untrustedSourceOf('2')?.kind, 'mail');
    assert.equal(df.untrustedSourceOf('2')?.inbound, true);
    assert.equal(df.untrustedSourceOf('4')?.inbound, false);
  });
  it('does not mark AI output untrusted (that is isAiDerived), but carries personal data through it', () => {
    assert.equal(df.isUntrusted('3'), false);
    assert.equal(df.isAiDerived('3'), true);
    const downstream = new Analysis(
      graph([...flow, m(5, 'slack:CreateMessage', { mapper: { text: '{{3.choices[].message.content}}' } })]),
    ).dataflow();
    assert.deepEqual(
      downstream.piiInputs('5').map((f) => [f.kind, f.from.moduleId]),
      [['personal', '1']],
    );
  });
  it('lists only prompt references of an AI module', () => {
    assert.deepEqual(
      df.promptRefsOf('3').map((r) => `${r.moduleId}.${r.path}`),
      ['2.body'],
    );
    assert.deepEqual(df.promptRefsOf('2'), []);
  });
});

describe('Analysis.strings: mapped and literal strings of mapper and parameters', () => {
  it("names a `{ name, value }` pair's value by its name, and keeps a name or key that is not a pair label", () => {
    const strings = new Analysis(
      graph([
        m(1, 'util:SetVariables', {
          mapper: { scope: 'roundtrip', variables: [{ name: 'to', value: 'someone@example.com' }] },
        }),
        m(2, 'datastore:AddRecord', {
          parameters: { datastore: 42 },
          mapper: { key: '{{1.to}}', overwrite: true, data: { email: '{{1.to}}' } },
        }),
        m(3, 'google-drive:createAFolder', {
          parameters: { __IMTCONN__: 5 },
          mapper: { name: 'Client {{1.to}}', folderId: '/root' },
        }),
      ]),
    ).strings();
    const named = (id: string) => strings.filter((s) => s.module.id === id).map((s) => `${s.fieldName}=${s.value}`);
    assert.deepEqual(named('1'), ['scope=roundtrip', 'to=someone@example.com']);
    assert.deepEqual(named('2'), ['key={{1.to}}', 'email={{1.to}}'], 'a data store record key is a value');
    assert.deepEqual(named('3'), ['name=Client {{1.to}}', 'folderId=/root'], 'a folder name is a value');
  });
});
