/** PRIV rules from the issue 14 labelled set: Text parser captures, hosted databases, form question titles. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';
import { captureLabels } from '../../../src/engine/regex-captures.js';

const mail = m(1, 'email:TriggerNewEmail', { parameters: { folder: 'INBOX' } });
const parser = (pattern: string) =>
  m(2, 'regexp:Parser', { parameters: { pattern, global: false, multiline: true }, mapper: { text: '{{1.text}}' } });
const post = (id: number, data: string) =>
  m(id, 'http:MakeRequest', {
    version: 4,
    mapper: { url: 'https://api.crm-vendor.io/Organisations', method: 'post', body: data },
    onerror: breakHandler(id + 100),
  });
const ai = (id: number, content: string) =>
  m(id, 'openai-gpt-3:CreateCompletion', {
    mapper: { model: 'gpt-4o-mini', max_tokens: 300, messages: [{ role: 'user', content }] },
    onerror: breakHandler(id + 100),
  });
const QUOTE =
  'Full\\s+Name\\s*:\\s*(\\S+)\\s+(.*?)\\nEmail\\s+Address\\s*:\\s*(.*?)\\nCompany\\s+Name\\s*:\\s*(.*?)\\nCountry\\s*:\\s*(.*?)\\nMessage\\s*:\\s*(.*?)\\n';

describe('capture labels of a Text parser pattern', () => {
  it('names each group by the literal text before it; a group after only whitespace continues the previous one', () => {
    assert.deepEqual(
      [...captureLabels(QUOTE)],
      [
        ['$1', 'Full Name'],
        ['$2', 'Full Name'],
        ['$3', 'Email Address'],
        ['$4', 'Company Name'],
        ['$5', 'Country'],
        ['$6', 'Message'],
      ],
    );
  });
  it('reads lookbehinds and named groups, and leaves tags, bare groups and generic names unlabelled', () => {
    assert.deepEqual([...captureLabels('(?<=Location:)(.*?)(?=Affiliation)')], [['$1', 'Location']]);
    assert.deepEqual(
      [...captureLabels('/d/(?<docId>[^/]+)/')],
      [
        ['docId', 'docId'],
        ['$1', 'docId'],
      ],
    );
    assert.deepEqual(
      [...captureLabels('(?<json>\\{[\\s\\S]*\\})')],
      [
        ['json', null],
        ['$1', null],
      ],
    );
    assert.deepEqual([...captureLabels('<h4[^>]*class="x"[^>]*>(.*?)<\\/h4>')], [['$1', null]]);
    assert.deepEqual([...captureLabels('(\\w+@\\w+\\.com)')], [['$1', null]]);
  });
});

describe('PRIV-2 and PRIV-3 on captures of a personal e-mail', () => {
  it('do not report a request carrying only the company name and country captures', () => {
    const b = bp([mail, parser(QUOTE), post(3, '{"OrganisationName":"{{2.$4}}","OrganisationCountry":"{{2.`$5`}}"}')]);
    passes(b, 'PRIV-2');
    passes(b, 'PRIV-3');
  });
  it('report the captures labelled as a name, an address or the message, by kind', () => {
    const b = bp([
      mail,
      parser(QUOTE),
      post(3, '{"OrganisationName":"{{2.$4}}"}'),
      post(4, '{"PersonName":"{{2.$1}} {{2.$2}}","PersonEmail":"{{2.$3}}"}'),
      post(5, '{"Note":"{{2.$6}}"}'),
    ]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['4', '5']);
  });
  it('keep an unlabelled capture of a personal text personal (it may hold anything the person wrote)', () => {
    assert.deepEqual(failingIds(bp([mail, parser('^(.*)$'), post(3, '{"Note":"{{2.$1}}"}')]), 'PRIV-2'), ['3']);
  });
  it('judge a labelled capture of a text that is not personal by its name alone', () => {
    const page = m(1, 'http:ActionSendData', { mapper: { url: 'https://news.example.org/jobs', method: 'get' } });
    const p = m(2, 'regexp:Parser', {
      parameters: { pattern: 'Name:\\s*(.*?)\\nEmail:\\s*(.*?)\\n' },
      mapper: { text: '{{1.data}}' },
    });
    assert.deepEqual(failingIds(bp([page, p, post(3, '{"a":"{{2.$1}}"}'), post(4, '{"b":"{{2.$2}}"}')]), 'PRIV-2'), [
      '4',
    ]);
  });
});

describe('PRIV-2 to a hosted database', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 7 } });
  const put = (id: number, url: string) =>
    m(id, 'http:MakeRequest', {
      version: 4,
      mapper: { url, method: 'put', body: '{"phone":"{{1.phone}}","email":"{{1.email}}"}' },
      onerror: breakHandler(id + 100),
    });
  it("is low for the operator's own Firebase or Supabase database, medium for any other host", () => {
    const b = bp([
      hook,
      put(2, 'https://shop-default-rtdb.firebaseio.com/users/{{1.phone}}.json'),
      put(3, 'https://abcd1234.supabase.co/rest/v1/leads'),
      put(4, 'https://partner-api.example.net/leads'),
    ]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['2', '3', '4']);
    const v = violationOf(b, 'PRIV-2')!;
    assert.deepEqual(
      v.failing_modules.map((f) => f.severity),
      ['low', 'low', 'medium'],
    );
  });
  it('does not take a look-alike host (firebaseio.com.evil.example) for a database', () => {
    const v = violationOf(bp([hook, put(2, 'https://firebaseio.com.evil.example/x')]), 'PRIV-2')!;
    assert.deepEqual(
      v.failing_modules.map((f) => f.severity),
      ['medium'],
    );
  });
});

describe('health questions of a form (PRIV-1, PRIV-6)', () => {
  const question = (id: string, label: string) => ({
    name: id,
    type: 'collection',
    label,
    spec: [
      {
        name: 'textAnswers',
        type: 'collection',
        spec: [{ name: 'answers', type: 'array', spec: [{ name: 'value', type: 'text' }] }],
      },
    ],
  });
  const form = m(1, 'google-forms:watchResponses', {
    version: 2,
    parameters: { formId: 'f1', limit: 10 },
    metadata: {
      designer: { x: 0, y: 0 },
      interface: [
        { name: 'respondentEmail', type: 'text' },
        {
          name: 'answers',
          type: 'collection',
          spec: [
            question('5a1b2c3d', 'Nombre'),
            question('0e36aa57', '¿Tienes algún tratamiento en curso?'),
            question('57ec546d', '¿Tienes seguro dental o prefieres financiamiento?'),
            question('1c2d3e4f', 'Email'),
          ],
        },
      ],
    },
  });
  const answer = (id: string) => `{{1.answers.\`${id}\`.textAnswers.answers[].value}}`;
  const sheet = (values: Record<string, string>) =>
    m(2, 'google-sheets:addRow', { version: 2, mapper: { sheetId: 'CRM', values }, onerror: breakHandler(102) });
  const mail = (id: number, to: string) =>
    m(id, 'google-email:sendAnEmail', {
      mapper: { to: [to], subject: 'Your visit', html: `Treatment: ${answer('0e36aa57')}` },
      onerror: breakHandler(id + 100),
    });

  it('reads an answer under a question id by the question title: health data makes PRIV-1 critical', () => {
    assert.equal(
      violationOf(bp([form, ai(3, `Quote for ${answer('5a1b2c3d')}: ${answer('0e36aa57')}`)]), 'PRIV-1')!.severity,
      'critical',
    );
  });
  it("grades PRIV-6 by recipient: AI critical, own record store medium, staff mail high, the respondent's own address not reported", () => {
    const b = bp([
      form,
      sheet({ 0: answer('0e36aa57') }),
      ai(3, `Quote: ${answer('0e36aa57')}`),
      mail(4, 'front-desk@clinic-example.es'),
      mail(5, answer('1c2d3e4f')),
    ]);
    const v = violationOf(b, 'PRIV-6')!;
    assert.deepEqual(
      v.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['2:medium', '3:critical', '4:high'],
    );
  });
  it('keeps an answer to a question that is not about health ordinary personal data', () => {
    const b = bp([form, ai(3, `Quote for ${answer('5a1b2c3d')}: ${answer('57ec546d')}`)]);
    assert.equal(violationOf(b, 'PRIV-1')!.severity, 'high');
    passes(b, 'PRIV-6');
  });
});

describe('PRIV-6 card data in a record store', () => {
  it('is high: PCI DSS forbids storing a readable PAN anywhere, unlike health data the controller keeps (medium)', () => {
    const rows = m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 10 } });
    const v = violationOf(
      bp([
        rows,
        m(2, 'google-sheets:addRow', {
          version: 2,
          mapper: { values: { 0: '{{1.card_number}}' } },
          onerror: breakHandler(9),
        }),
        m(3, 'airtable:ActionCreateRecord', {
          mapper: { record: { d: '{{1.diagnosis}}' } },
          onerror: breakHandler(10),
        }),
      ]),
      'PRIV-6',
    )!;
    assert.deepEqual(
      v.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['2:high', '3:medium'],
    );
  });
});

describe('PRIV-2 recipients the blueprint names', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 7 } });
  const send = (id: number, url: string, data: string) =>
    m(id, 'http:ActionSendData', {
      version: 3,
      mapper: { url, method: 'post', data },
      onerror: breakHandler(id + 100),
    });
  it("is low for the operator's CRM, its WhatsApp Cloud API messages and a template's placeholder address; medium for an unlisted host", () => {
    const b = bp([
      hook,
      send(2, 'https://api.webcrm.com/Persons', '{"PersonEmail":"{{1.email}}"}'),
      send(3, 'https://graph.facebook.com/v23.0/123456/messages', '{"to":"{{1.phone}}","type":"text"}'),
      send(4, 'YOUR_SLACK_WEBHOOK_URL', '{"text":"New lead {{1.email}}"}'),
      send(5, 'https://my-inbox.onrender.com/api/webhook', '{"phone":"{{1.phone}}"}'),
      send(6, 'https://graph.facebook.com/v23.0/123456/feed', '{"message":"{{1.email}}"}'),
    ]);
    assert.deepEqual(
      violationOf(b, 'PRIV-2')!.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['2:low', '3:low', '4:low', '5:medium', '6:medium'],
    );
  });
});

describe('Set multiple variables', () => {
  it('passes on per variable: a request that reads only the date variable carries no personal data', () => {
    const form = m(1, 'gateway:CustomWebHook', { parameters: { hook: 7 } });
    const vars = m(2, 'util:SetVariables', {
      mapper: {
        variables: [
          { name: 'Who', value: '{{1.first_name}}' },
          { name: 'Today', value: '{{formatDate(now; "YYYY-MM-DD")}}' },
        ],
        scope: 'roundtrip',
      },
    });
    const get = (id: number, q: string) =>
      m(id, 'http:ActionSendData', {
        version: 3,
        mapper: { url: 'https://leave.example.net/api/holidays', method: 'get', qs: [{ name: 'x', value: q }] },
        onerror: breakHandler(id + 100),
      });
    assert.deepEqual(failingIds(bp([form, vars, get(3, '{{2.Today}}'), get(4, '{{2.Who}}')]), 'PRIV-2'), ['4']);
  });
});
