/**
 * Engine v2 (issue 14): DI-1 / DI-2 decide from the module table (items 9), AI-1 / AI-4 flag AI
 * output only where it reaches people outside the team (item 12). Real-shaped modules: names and
 * mapper keys of the exports in the development corpora, our own values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const gmailTrigger = m(1, 'google-email:triggerWatchNewEmails', {
  version: 4,
  parameters: { __IMTCONN__: 11, folder: 'INBOX', criteria: 'all', limit: 1 },
  mapper: {},
});
const gemini = (id: number, extra: Record<string, unknown> = {}) =>
  m(id, 'gemini-ai:createACompletionGeminiPro', {
    mapper: {
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ type: 'text', text: 'Suggest a reply to: {{1.fullTextBody}}' }] }],
    },
    onerror: breakHandler(id + 100),
    ...extra,
  });
const handled = (mod: Mod, id: number): Mod => ({ ...mod, onerror: breakHandler(id) });
const severities = (b: unknown, code: string) =>
  violationOf(b, code)!.failing_modules.map((f) => [f.module_id, f.severity]);

describe('DI-1 decides what changes data from the module table', () => {
  it('leaves out AI completions (any provider, any action name), LLM calls over HTTP and code that computes', () => {
    const b = bp([
      gmailTrigger,
      m(2, 'openai-gpt-3:CreateCompletion', {
        mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.subject}}' }] },
      }),
      m(3, 'gemini-ai:createACompletionGeminiPro', { mapper: { model: 'gemini-2.5-flash', contents: [] } }),
      m(4, 'anthropic-claude:simpleTextPrompt', { mapper: { prompt: '{{1.subject}}' } }),
      m(5, 'http:MakeRequest', {
        version: 4,
        mapper: { url: 'https://api.groq.com/openai/v1/chat/completions', method: 'post', contentType: 'json' },
      }),
      m(6, 'custom-js:execute', { mapper: { code: 'return text.trim()', text: '{{2.result}}' } }),
      m(7, 'google-sheets:addRow', { version: 2, mapper: { spreadsheetId: '/1abc', values: { 0: '{{2.result}}' } } }),
    ]);
    assert.deepEqual(failingIds(b, 'DI-1'), ['7']);
  });

  it('reports a delete for good, a move to the trash (`permanent: false`) and a send at medium', () => {
    const b = bp([
      gmailTrigger,
      m(2, 'google-email:deleteAnEmail', { version: 4, mapper: { messageId: '{{1.id}}', permanent: false } }),
      m(3, 'google-drive:deleteAFile', { version: 4, mapper: { file: '{{1.id}}', select: 'map' } }),
      m(4, 'google-email:sendAnEmail', {
        version: 4,
        mapper: { to: ['{{1.fromEmail}}'], subject: 'Re', content: 'Thanks' },
      }),
      // A step after the send: it is not the last step of its route (which DI-1 reports low).
      m(5, 'util:SetVariable2', { mapper: { name: 'replied', scope: 'roundtrip', value: 'yes' } }),
    ]);
    assert.deepEqual(severities(b, 'DI-1'), [
      ['2', 'medium'],
      ['3', 'medium'],
      ['4', 'medium'],
    ]);
    assert.match(violationOf(b, 'DI-1')!.failing_modules[0]!.reason, /trash/);
  });
});

describe('DI-2 ignored failure, from the module table', () => {
  it('reports an ignored write at high, an ignored reversible change at medium and never an ignored AI call', () => {
    const b = bp([
      m(1, 'slack:GetPublicChannelMessage', { mapper: { channel: 'C1', ts: '1' } }),
      m(2, 'slack:AddReaction', {
        mapper: { name: 'eyes', channel: 'C1', timestamp: '{{1.ts}}' },
        onerror: [m(20, 'builtin:Ignore')],
      }),
      m(3, 'perplexity-ai:createAChatCompletion', {
        mapper: { model: 'sonar', messages: [] },
        onerror: [m(30, 'builtin:Ignore')],
      }),
      m(4, 'airtable:ActionCreateRecord', { mapper: { record: { Name: 'x' } }, onerror: [m(40, 'builtin:Ignore')] }),
    ]);
    assert.deepEqual(severities(b, 'DI-2'), [
      ['2', 'medium'],
      ['4', 'high'],
    ]);
  });
});

describe('AI-1 flags AI output that reaches third parties unreviewed', () => {
  const reply = (id: number, type: string, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    handled(m(id, type, { version: 4, mapper, ...extra }), id + 100);

  it("fails at high for a public post; a mail reply to the trigger mail's sender and an SMS back to the From of the webhook payload are low (issue 32: sender)", () => {
    const b = bp([
      gmailTrigger,
      gemini(2),
      reply(3, 'google-email:sendAnEmail', {
        to: ['{{1.fromEmail}}'],
        subject: 'Re: {{1.subject}}',
        bodyType: 'rawHtml',
        content: '{{2.result}}',
      }),
      reply(4, 'google-email:replyToAnEmail', {
        threadId: '{{1.threadId}}',
        bodyType: 'collection',
        contents: [{ text: 'Hi,\n{{2.result}}' }],
      }),
      reply(5, 'linkedin:CreatePost', { content: '{{2.result}}', visibility: 'PUBLIC', feedDistribution: 'MAIN_FEED' }),
    ]);
    assert.deepEqual(severities(b, 'AI-1'), [
      ['3', 'low'],
      ['4', 'low'],
      ['5', 'high'],
    ]);
    assert.equal(violationOf(b, 'AI-1')!.status, 'fail');
    const sms = bp([
      m(1, 'gateway:CustomWebHook', { parameters: { hook: 7, maxResults: 1 } }),
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.Body}}' }] },
        }),
        102,
      ),
      reply(3, 'twilio:SendSMS', {
        to: '{{1.From}}',
        body: '{{2.choices[].message.content}}',
        from: '+15550100',
        fromType: 'phone',
      }),
    ]);
    // The SMS goes back to the number that wrote (issue 32: the sender's audience); low.
    assert.deepEqual(severities(sms, 'AI-1'), [['3', 'low']]);
  });

  it("passes for AI-written mail or chat to a recipient written in the scenario: the owner's or the team's (issue 32)", () => {
    const b = bp([
      gmailTrigger,
      gemini(2),
      reply(
        3,
        'email:ActionSendEmail',
        { to: ['client.name@gmail.com'], subject: '{{1.subject}}', text: '{{2.result}}', contentType: 'text' },
        { parameters: { account: 5 } },
      ),
      reply(4, 'telegram:SendReplyMessage', { chatId: '-1002074700000', text: '{{2.result}}' }),
    ]);
    passes(b, 'AI-1');
  });

  it("passes for drafts, review records, the team's Slack, notifications that quote AI output under a label, mail to the own account and placeholder addresses", () => {
    const own = {
      restore: { parameters: { __IMTCONN__: { label: 'My Google connection (ops@acme-dental.es)' } } },
      designer: { x: 0, y: 0 },
    };
    const b = bp([
      gmailTrigger,
      gemini(2),
      reply(3, 'google-email:createADraft', {
        to: ['{{1.fromEmail}}'],
        subject: 'Re: {{1.subject}}',
        bodyType: 'rawHtml',
        content: '{{2.result}}',
      }),
      reply(4, 'email:ActionCreateDraft', { to: ['{{1.fromEmail}}'], text: '{{2.result}}' }),
      reply(5, 'airtable:ActionCreateRecord', { record: { Draft: '{{2.result}}', Status: 'Pending Review' } }),
      reply(6, 'slack:CreateMessage', { channel: 'C0BN8EP377T', channelType: 'public', text: '{{2.result}}' }),
      reply(7, 'google-email:sendAnEmail', {
        to: ['owner@gmail.com'],
        subject: '[ESCALATION] {{1.subject}}',
        content: 'From: {{1.fromEmail}}\nSummary: {{2.result}}',
      }),
      reply(
        8,
        'google-email:sendAnEmail',
        { to: ['ops@acme-dental.es', 'sales@acme-dental.es'], subject: 'Digest', content: '{{2.result}}' },
        { metadata: own },
      ),
      reply(9, 'email:ActionSendMeEmail', { subject: 'Digest', text: '{{2.result}}' }),
      reply(10, 'contentful:createAnEntry', {
        contentTypeID: 'blogPost',
        locale: 'en-US',
        fields: { content: '{{2.result}}' },
      }),
      reply(11, 'email:ActionSendEmail', {
        to: ['YOUR_EMAIL@example.com'],
        subject: 'Digest',
        text: '{{2.result}}',
        contentType: 'text',
      }),
      reply(12, 'slack:CreateMessage', { channel: '{{1.fromEmail}}', channelType: 'im', text: '{{2.result}}' }),
    ]);
    passes(b, 'AI-1');
  });

  it("reports a chat bot's answer to the person who wrote, and a webhook response to its caller, at low (a warning)", () => {
    const bot = bp(
      [
        m(1, 'telegram:WatchUpdates', { parameters: { __IMTHOOK__: 9 } }),
        handled(
          m(2, 'openai-gpt-3:CreateCompletion', {
            mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.message.text}}' }] },
          }),
          102,
        ),
        reply(3, 'telegram:SendReplyMessage', { chatId: '{{1.message.chat.id}}', text: '{{2.result}}' }),
      ],
      {},
      { instant: true },
    );
    assert.deepEqual(severities(bot, 'AI-1'), [['3', 'low']]);
    assert.equal(violationOf(bot, 'AI-1')!.status, 'warn');
    const whatsapp = bp(
      [
        m(1, 'whatsapp-business-cloud:watchEvents', { parameters: { __IMTHOOK__: 9 } }),
        m(2, 'util:SetVariable2', { mapper: { name: 'sender', value: '{{1.contacts[].wa_id}}' } }),
        handled(
          m(3, 'openai-gpt-3:messageAssistantAdvanced', {
            mapper: { role: 'user', message: '{{1.messages[].text.body}}', assistantId: 'asst_1' },
          }),
          103,
        ),
        reply(4, 'whatsapp-business-cloud:sendMessage', {
          to: '{{2.sender}}',
          type: 'text',
          text: { body: '{{3.result}}', preview_url: false },
        }),
      ],
      {},
      { instant: true },
    );
    assert.deepEqual(severities(whatsapp, 'AI-1'), [['4', 'low']]);
    const hook = bp([
      m(1, 'gateway:CustomWebHook', { parameters: { hook: 7, maxResults: 1 } }),
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.question}}' }] },
        }),
        102,
      ),
      m(3, 'gateway:WebhookRespond', {
        mapper: { status: '200', body: '{"result": "{{2.choices[].message.content}}"}', headers: [] },
      }),
    ]);
    assert.deepEqual(severities(hook, 'AI-1'), [['3', 'low']]);
  });

  it('fails at high for a chat message to recipients from a sheet (a broadcast, not an answer)', () => {
    const b = bp([
      m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 10 } }),
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.`0`}}' }] },
        }),
        102,
      ),
      reply(3, 'telegram:SendReplyMessage', { chatId: '{{1.`3`}}', text: '{{2.result}}' }),
    ]);
    assert.deepEqual(severities(b, 'AI-1'), [['3', 'high']]);
  });

  it("does not take an AI module's error message in its error route for its output", () => {
    const b = bp([
      gmailTrigger,
      gemini(2, {
        onerror: [
          m(20, 'google-email:sendAnEmail', {
            version: 4,
            mapper: { to: ['client.name@gmail.com'], subject: 'Failed', content: '{{2.error.message}}' },
          }),
          m(21, 'builtin:Break'),
        ],
      }),
    ]);
    passes(b, 'AI-1');
    passes(b, 'AI-6');
  });
});

describe('AI-4 disclosure follows the audience', () => {
  it('warns for output sent to a customer or a chat user, not for drafts or team notifications', () => {
    const b = bp([
      gmailTrigger,
      gemini(2),
      handled(
        m(3, 'google-email:sendAnEmail', {
          version: 4,
          mapper: { to: ['{{1.fromEmail}}'], subject: 'Re', content: '{{2.result}}' },
        }),
        103,
      ),
      handled(
        m(4, 'google-email:createADraft', { version: 4, mapper: { to: ['{{1.fromEmail}}'], content: '{{2.result}}' } }),
        104,
      ),
      handled(m(5, 'slack:CreateMessage', { mapper: { channel: 'C1', text: 'Summary: {{2.result}}' } }), 105),
    ]);
    assert.deepEqual(failingIds(b, 'AI-4'), ['3']);
  });
});
