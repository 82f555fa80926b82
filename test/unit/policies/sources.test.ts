/**
 * Issue 14, items 1, 2, 10, 11 and 13: personal data and untrusted input known by their SOURCE and
 * carried through the data flow (PRIV-1, PRIV-2, PRIV-4, AI-2), field names personal only in a
 * personal context (PRIV-2, PRIV-3, PRIV-6), and only the prompt fields of an AI module counting as
 * the prompt (AI-2). Real-shaped modules (names, mapper keys and output paths as Make exports them),
 * our own values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const openai = (id: number, content: string, extra: Record<string, unknown> = {}) =>
  m(id, 'openai-gpt-3:CreateCompletion', {
    mapper: {
      select: 'chat',
      model: 'gpt-4o-mini',
      max_tokens: '300',
      messages: [{ role: 'user', content }],
      ...extra,
    },
    onerror: breakHandler(id + 100),
  });
const gemini = (id: number, text: string) =>
  m(id, 'gemini-ai:createACompletionGeminiPro', {
    mapper: {
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ type: 'text', text }] }],
      system_instruction: { parts: [{ text: 'Classify the e-mail.' }] },
    },
    onerror: breakHandler(id + 100),
  });
const claude = (id: number, content: string) =>
  m(id, 'anthropic-claude:createAMessage', {
    mapper: {
      model: 'claude-sonnet-4-20250514',
      max_tokens: '1000',
      system: 'Answer politely.',
      messages: [{ role: 'user', content }],
    },
    onerror: breakHandler(id + 100),
  });
const post = (id: number, url: string, data: string) =>
  m(id, 'http:ActionSendData', {
    version: 3,
    mapper: { url, method: 'post', bodyType: 'raw', contentType: 'application/json', data },
    onerror: breakHandler(id + 100),
  });
const sheetRow = (id: number, values: Record<string, string>) =>
  m(id, 'google-sheets:addRow', {
    version: 2,
    mapper: { mode: 'select', sheetId: 'Sheet1', values },
    onerror: breakHandler(id + 100),
  });

const gmail = m(1, 'google-email:triggerWatchNewEmails', {
  version: 2,
  parameters: { folder: 'INBOX', criteria: 'is:unread', format: 'full' },
});
const imap = m(1, 'email:TriggerNewEmail', { version: 7, parameters: { folder: 'INBOX', criteria: 'UNSEEN' } });
const formHook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 11, maxResults: 1 } });
const typeform = m(1, 'typeform:WatchEventsWithResponses', { version: 2, parameters: { __IMTHOOK__: 7 } });
const telegram = m(1, 'telegram:GetUpdates', { version: 1, parameters: { __IMTCONN__: 3 } });
const rss = m(1, 'rss:TriggerNewArticle', { version: 4, parameters: { url: 'https://news.example.org/feed.xml' } });
const sheet = m(1, 'google-sheets:watchRows', { version: 2, parameters: { sheetId: 'Leads', limit: 10 } });

describe('item 1: personal data known by its source reaches AI prompts (PRIV-1; issue 32: by what it is)', () => {
  const reply = (id: number, to: string) =>
    m(id, 'google-email:sendAnEmail', {
      mapper: { to: [to], subject: 'Thanks', bodyType: 'rawHtml', content: 'We received your request.' },
      onerror: breakHandler(id + 100),
    });
  it('fails for a form answer `data.fields[2].value` from a form webhook when the scenario knows who sent it; free text alone identifies no one', () => {
    const prompt = openai(2, 'Summarise this request: {{1.data.fields[2].value}}');
    passes(bp([formHook, prompt]), 'PRIV-1');
    assert.deepEqual(failingIds(bp([formHook, prompt, reply(3, '{{1.data.email}}')]), 'PRIV-1'), ['2']);
  });
  it('does not report a Typeform answer mapped by its question id alone (free text, no one identified)', () => {
    passes(bp([typeform, openai(2, 'Reply to: {{1.mappable_answers.`q-budget-range`}}')]), 'PRIV-1');
  });
  it('fails for the sender name and body of a Gmail message sent to Gemini, and names the source', () => {
    const v = violationOf(bp([gmail, gemini(2, 'From {{1.fromName}}: {{1.text}}')]), 'PRIV-1');
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['2'],
    );
    assert.match(v.failing_modules[0]!.reason, /google-email:triggerWatchNewEmails/);
  });
  it("fails for the body of an e-mail alone: correspondence carries its writer's name and signature", () => {
    assert.deepEqual(failingIds(bp([imap, openai(2, 'Summarise: {{1.text}}')]), 'PRIV-1'), ['2']);
  });
  it("fails for a chat message sent to Claude with the sender's name; the text alone to a bot that only answers the chat is not personal data", () => {
    passes(bp([telegram, claude(2, 'Write a post about: {{1.message.text}}')]), 'PRIV-1');
    assert.deepEqual(
      failingIds(
        bp([telegram, claude(2, 'Customer {{1.message.from.first_name}} wrote: {{1.message.text}}')]),
        'PRIV-1',
      ),
      ['2'],
    );
  });
  it('fails for a CRM contact record whatever the property is called (a contact is an identified person)', () => {
    const contact = m(2, 'hubspotcrm:getContact', { version: 2, mapper: { contactId: '{{1.`0`}}' } });
    assert.deepEqual(
      failingIds(bp([sheet, contact, openai(3, 'Write an offer for {{2.properties.notes}}')]), 'PRIV-1'),
      ['3'],
    );
  });
  it('judges the rows of a Google Forms responses sheet by their questions: a topic is not personal, a name is', () => {
    const columns = (labels: string[]) => ({
      metadata: {
        designer: { x: 0, y: 0 },
        interface: labels.map((label, i) => ({
          name: String(i),
          type: 'text',
          label: `${label} (${String.fromCharCode(65 + i)})`,
        })),
      },
    });
    const responses = m(1, 'google-sheets:watchRows', {
      version: 2,
      parameters: { sheetId: 'Form Responses 1', limit: 10 },
      ...columns(['Timestamp', 'What topic do you want posts about?', "What's your full name?", 'Your email address']),
    });
    const ideas = openai(2, 'Five post ideas about {{1.`1`}}');
    passes(bp([responses, ideas, reply(3, '{{1.`3`}}')]), 'PRIV-1');
    assert.deepEqual(failingIds(bp([responses, openai(2, 'Greet {{1.`2`}} about {{1.`1`}}')]), 'PRIV-1'), ['2']);
  });
  it('passes for the answers of an anonymous form, and for feedback sent without the name the form also asks for; fails once the name goes too', () => {
    const columns = (labels: string[]) => ({
      metadata: {
        designer: { x: 0, y: 0 },
        interface: labels.map((label, i) => ({
          name: String(i),
          type: 'text',
          label: `${label} (${String.fromCharCode(65 + i)})`,
        })),
      },
    });
    const anonymous = m(1, 'google-sheets:watchRows', {
      version: 2,
      parameters: { sheetId: 'Respostas ao formulário 1', limit: 1 },
      ...columns(['Carimbo de data/hora', 'Classifique nossos serviços', 'Dê um feedback dos nossos serviços']),
    });
    passes(bp([anonymous, openai(2, 'Summarise: {{1.`1`}} {{1.`2`}}')]), 'PRIV-1');
    const named = m(1, 'google-sheets:watchRows', {
      version: 2,
      parameters: { sheetId: 'Form Responses 1', limit: 1 },
      ...columns(['Timestamp', 'Your name', 'Feedback']),
    });
    passes(bp([named, openai(2, 'Summarise: {{1.`2`}}')]), 'PRIV-1');
    assert.deepEqual(failingIds(bp([named, openai(2, 'Summarise {{1.`1`}}: {{1.`2`}}')]), 'PRIV-1'), ['2']);
  });
  it('does not count a reference field (`id`) of a module whose output carries personal data', () => {
    const contact = m(2, 'hubspotcrm:getContact', { version: 2, mapper: { contactId: '{{1.`0`}}' } });
    const call = m(3, 'http:ActionSendData', {
      version: 3,
      mapper: {
        url: 'https://api.vapi.ai/call/phone',
        method: 'post',
        bodyType: 'raw',
        contentType: 'application/json',
        data: '{"name":"{{2.properties.firstname}}"}',
      },
      onerror: breakHandler(103),
    });
    const status = m(4, 'http:ActionSendData', {
      version: 3,
      mapper: { url: 'https://api.vapi.ai/call/{{3.data.id}}', method: 'get' },
      onerror: breakHandler(104),
    });
    const v = violationOf(bp([sheet, contact, call, status]), 'PRIV-1');
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['3'],
      'the status call sends only the call id',
    );
  });
  it('passes for the ids, dates and labels of an e-mail, for plain sheet columns, and for a company record', () => {
    passes(bp([gmail, gemini(2, 'Thread {{1.threadId}} of {{1.internalDate}}, labels {{1.labelIds}}')]), 'PRIV-1');
    passes(bp([sheet, openai(2, 'Summarise {{1.`2`}}')]), 'PRIV-1');
    const company = m(2, 'hubspotcrm:getCompany', { version: 2, mapper: { companyId: '{{1.`0`}}' } });
    passes(
      bp([
        sheet,
        company,
        openai(3, 'Research {{2.properties.name}}, phone {{2.properties.phone}}, {{2.properties.address}}'),
      ]),
      'PRIV-1',
    );
  });
});

describe('item 1: source-based personal data carried through the data flow (PRIV-2, PRIV-4)', () => {
  it('carries a form submission through an iterator and a text aggregator into an HTTP request', () => {
    const each = m(2, 'builtin:BasicFeeder', { mapper: { array: '{{1.data.fields}}' } });
    const join = m(3, 'util:TextAggregator', {
      parameters: { feeder: 2, rowSeparator: '\n' },
      mapper: { value: '{{2.label}}: {{2.value}}' },
    });
    assert.deepEqual(
      failingIds(
        bp([formHook, each, join, post(4, 'https://crm.acme-tools.io/api/leads', '{"notes": "{{3.text}}"}')]),
        'PRIV-2',
      ),
      ['4'],
    );
  });
  it('carries an e-mail through JSON parsing and an AI summary: a summary of a personal e-mail is personal data', () => {
    const parsed = m(3, 'json:ParseJSON', { mapper: { json: '{{2.choices[].message.content}}' } });
    const b = bp([
      imap,
      openai(2, 'Summarise: {{1.text}}'),
      parsed,
      post(4, 'https://tickets.acme-tools.io/api/v1/items', '{"summary": "{{3.summary}}"}'),
    ]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['4']);
  });
  it('reports an e-mail body sent from an EU zone to a US-hosted model (PRIV-4)', () => {
    assert.deepEqual(failingIds(bp([imap, claude(2, '{{1.text}}')], {}, { zone: 'eu2.make.com' }), 'PRIV-4'), ['2']);
  });
  it('types a numbered sheet column by its exported label (`Customer Email (C)`)', () => {
    const labelled = m(1, 'google-sheets:watchRows', {
      version: 2,
      parameters: { sheetId: 'Customers' },
      metadata: {
        designer: { x: 0, y: 0 },
        interface: [
          { name: '0', label: 'Service Date (A)', type: 'text' },
          { name: '2', label: 'Customer Email (C)', type: 'text' },
        ],
      },
    });
    assert.deepEqual(
      failingIds(
        bp([labelled, post(2, 'https://crm.acme-tools.io/api/contacts', '{"e": "{{1.`2`}}", "d": "{{1.`0`}}"}')]),
        'PRIV-2',
      ),
      ['2'],
    );
    passes(bp([labelled, post(2, 'https://crm.acme-tools.io/api/contacts', '{"d": "{{1.`0`}}"}')]), 'PRIV-2');
  });
  it("does not report a call to one of Make's own webhooks (another scenario, same platform)", () => {
    passes(
      bp([gmail, post(2, 'https://hook.eu1.make.com/abcdefghijklmnopqrstuvwxyz012345', '{"from": "{{1.fromEmail}}"}')]),
      'PRIV-2',
    );
  });
});

describe('item 2: untrusted input beyond webhooks (AI-2)', () => {
  it('fails for an inbound Gmail message in a Gemini prompt, naming the source', () => {
    const v = violationOf(bp([gmail, gemini(2, 'From {{1.fromName}}: {{1.text}}')]), 'AI-2');
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['2'],
    );
    assert.match(v.failing_modules[0]!.reason, /incoming e-mail/);
  });
  it('fails for a Telegram message in a Claude prompt', () => {
    assert.deepEqual(failingIds(bp([telegram, claude(2, 'Answer the customer: {{1.message.text}}')]), 'AI-2'), ['2']);
  });
  it('fails for an RSS item and for a web page fetched from a mapped address', () => {
    assert.deepEqual(failingIds(bp([rss, openai(2, 'Summarise {{1.description}}')]), 'AI-2'), ['2']);
    const page = m(2, 'http:ActionSendData', {
      version: 3,
      mapper: { url: '{{1.`3`}}', method: 'get' },
      onerror: breakHandler(102),
    });
    const text = m(3, 'regexp:HTMLToText', { mapper: { html: '{{2.data}}', newline: 'lf' } });
    assert.deepEqual(failingIds(bp([sheet, page, text, openai(4, 'Extract the price from {{3.text}}')]), 'AI-2'), [
      '4',
    ]);
  });
  it('passes for an internal sheet, a CRM record and a JSON API', () => {
    passes(bp([sheet, openai(2, 'Answer: {{1.`4`}}')]), 'AI-2');
    const contact = m(2, 'hubspotcrm:getContact', { version: 2, mapper: { contactId: '{{1.`0`}}' } });
    passes(bp([sheet, contact, openai(3, 'Write to {{2.properties.firstname}}')]), 'AI-2');
    const prices = m(2, 'http:ActionSendData', {
      version: 3,
      mapper: { url: 'https://api.coingecko.com/api/v3/simple/price?ids=bitcoin', method: 'get' },
      onerror: breakHandler(102),
    });
    passes(bp([sheet, prices, openai(3, 'Comment on {{2.data.bitcoin.usd}}')]), 'AI-2');
  });
});

describe('item 11: only the prompt fields of an AI call are the prompt (AI-2)', () => {
  const llm = (id: number, mapper: Record<string, unknown>) =>
    m(id, 'http:MakeRequest', {
      version: 4,
      mapper: {
        url: 'https://api.openai.com/v1/chat/completions',
        method: 'post',
        contentType: 'json',
        inputMethod: 'jsonString',
        ...mapper,
      },
      onerror: breakHandler(id + 100),
    });
  const body = (content: string, model = 'gpt-4o-mini') =>
    `{"model": "${model}", "messages": [{"role": "user", "content": "${content}"}]}`;
  it('passes when webhook data is only in the Authorization header, the model name or the URL of the LLM call', () => {
    passes(
      bp([
        formHook,
        llm(2, {
          headers: [{ name: 'Authorization', value: 'Bearer {{1.token}}' }],
          jsonStringBodyContent: body('Say hello'),
        }),
      ]),
      'AI-2',
    );
    passes(bp([formHook, llm(2, { jsonStringBodyContent: body('Say hello', '{{1.model}}') })]), 'AI-2');
    passes(bp([formHook, openai(2, 'Say hello', { model: '{{1.model}}' })]), 'AI-2');
  });
  it('fails when webhook data is in the messages of the request body', () => {
    assert.deepEqual(
      failingIds(
        bp([
          formHook,
          llm(2, {
            headers: [{ name: 'Authorization', value: 'Bearer {{1.token}}' }],
            jsonStringBodyContent: body('Answer {{1.question}}'),
          }),
        ]),
        'AI-2',
      ),
      ['2'],
    );
  });
});

describe('item 10: a field name is personal only in a personal context (PRIV-2, PRIV-3)', () => {
  const github = m(1, 'gateway:CustomWebHook', { parameters: { hook: 12, maxResults: 1 } });
  const notify = m(3, 'slack:CreateMessage', {
    mapper: { channel: 'C0DEPLOY', text: 'Deployed {{1.repository.full_name}} ({{1.repository.owner.login}})' },
    onerror: breakHandler(103),
  });
  it('passes for GitHub `repository.full_name` sent to a build server and to Slack', () => {
    const b = bp([
      github,
      post(2, 'https://ci.acme-tools.io/api/builds', '{"repo": "{{1.repository.full_name}}", "ref": "{{1.ref}}"}'),
      notify,
    ]);
    passes(b, 'PRIV-2');
    passes(b, 'PRIV-3');
  });
  it("fails for the commit author's name and e-mail in the same payload", () => {
    const b = bp([
      github,
      post(
        2,
        'https://ci.acme-tools.io/api/builds',
        '{"repo": "{{1.repository.full_name}}", "by": "{{1.head_commit.author.name}} <{{1.head_commit.author.email}}>"}',
      ),
      notify,
    ]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['2']);
    assert.deepEqual(failingIds(b, 'PRIV-3'), ['2']);
  });
});

describe('item 13: card data only in a card context (PRIV-6)', () => {
  const booking = m(1, 'gateway:CustomWebHook', { parameters: { hook: 13, maxResults: 1 } });
  it('passes for the expiry of a pickup window, and for a card expiry without the card number', () => {
    passes(
      bp([
        booking,
        sheetRow(2, { 0: '{{1.pickup.expiry}}', 1: '{{1.pickup_window.expiry}}', 2: '{{1.offer.expiry}}' }),
      ]),
      'PRIV-6',
    );
    passes(
      bp([
        booking,
        sheetRow(2, {
          0: '{{1.payment_method.card.exp_month}}',
          1: '{{1.card.expiry}}',
          2: '{{1.payment_method.card.last4}}',
        }),
      ]),
      'PRIV-6',
    );
  });
  it('fails for a card number under a card object', () => {
    assert.deepEqual(
      failingIds(bp([booking, sheetRow(2, { 0: '{{1.pickup.expiry}}', 1: '{{1.payment.card.number}}' })]), 'PRIV-6'),
      ['2'],
    );
  });
  it("passes for a weather `condition` and a product `treatment`, fails for a patient's condition", () => {
    const weather = m(1, 'weather:ActionGetCurrentWeather', { version: 1, mapper: { city: 'Lisbon' } });
    passes(bp([weather, sheetRow(2, { 0: '{{1.condition}}', 1: '{{1.product.treatment}}' })]), 'PRIV-6');
    assert.deepEqual(failingIds(bp([booking, sheetRow(2, { 0: '{{1.patient.condition}}' })]), 'PRIV-6'), ['2']);
  });
});
