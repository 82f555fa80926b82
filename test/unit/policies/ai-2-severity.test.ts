/**
 * Issue 14: AI-2 severity from what the output of an injected model can make the scenario do
 * (OWASP LLM01:2025, LLM06:2025). High when it can act, medium when it only answers the asker,
 * reaches the team or is stored for people to read, low when nothing uses it. Real-shaped modules
 * (names, mapper keys and structures of the corpus exports), our own values; each high row has a
 * medium look-alike.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { violationOf } from '../../helpers/policy-assert.js';

const handled = (mod: Mod, id: number): Mod => ({ ...mod, onerror: breakHandler(id) });
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 3229863, maxResults: 1 } });
const gmail = m(1, 'google-email:TriggerNewEmail', {
  parameters: {
    account: 11706417,
    searchType: 'simple',
    markSeen: false,
    maxResults: 1,
    folder: 'INBOX',
    criteria: 'UNSEEN',
  },
});
const telegram = m(1, 'telegram:WatchUpdates', { parameters: { __IMTHOOK__: 9 } });
const gpt = (id: number, content: string): Mod =>
  handled(
    m(id, 'openai-gpt-3:CreateCompletion', {
      parameters: { __IMTCONN__: 11706863 },
      mapper: { select: 'chat', model: 'gpt-4o-mini', max_tokens: '300', messages: [{ role: 'user', content }] },
    }),
    id + 100,
  );
const ANSWER = '{{2.choices[].message.content}}';
const respond = (id: number, body: string): Mod =>
  m(id, 'gateway:WebhookRespond', { mapper: { body, status: '200', headers: [] } });
const slack = (id: number, text: string): Mod =>
  handled(
    m(id, 'slack:CreateMessage', {
      parameters: { __IMTCONN__: 8231243 },
      mapper: { channelWType: 'list', channelType: 'public', channel: 'C0B4DK4K6TD', text, mrkdwn: true },
    }),
    id + 100,
  );

/** The one AI-2 finding of a scenario: severity, status and reason. */
function ai2(flow: Mod[], instant = false): { severity: string; status: string; reason: string } {
  const v = violationOf(bp(flow, {}, { instant }), 'AI-2');
  assert.ok(v, 'AI-2 expected to report');
  assert.equal(v.failing_modules.length, 1);
  return { severity: v.failing_modules[0]!.severity, status: v.status, reason: v.failing_modules[0]!.reason };
}

describe('AI-2 is high when the injected output can act', () => {
  it('agent: a Make AI agent given the message acts with its tools (high); a completion whose answer returns to the caller is medium (make vonage shape)', () => {
    const agent = ai2([
      hook,
      handled(
        m(2, 'ai-agent:RunAnAIAgent', {
          mapper: {
            agent: 'cbd95eda-6773',
            messages: ['Customer number: {{1.from}}', '{{1.text}}'],
            threadID: '{{1.from}}',
          },
        }),
        102,
      ),
    ]);
    assert.equal(agent.severity, 'high');
    assert.match(
      agent.reason,
      /its output can act: the model is an AI agent, which acts with the tools configured on it/,
    );
    const answer = ai2([hook, gpt(2, 'Answer the customer: {{1.text}}'), respond(3, `{"reply": "${ANSWER}"}`)]);
    assert.equal(answer.severity, 'medium');
    assert.match(
      answer.reason,
      /its output cannot act: module 3 \(`gateway:WebhookRespond`\) returns it to the caller of the webhook/,
    );
  });

  it('aims: the model picks the record an update changes (high); its summary written into a record found by the message id is medium', () => {
    const update = (id: number, recordId: string, record: Record<string, string>) =>
      handled(
        m(id, 'airtable:ActionUpdateRecords', {
          parameters: { __IMTCONN__: 3165549 },
          mapper: { id: recordId, base: 'appAfzlWKGj7n5GQq', table: 'tbl4hjlfMYw78eK9Z', record, typecast: false },
        }),
        id + 100,
      );
    const aimed = ai2([
      gmail,
      gpt(2, 'Which order id does this e-mail cancel? Answer with the record id only.\n{{1.text}}'),
      update(3, ANSWER, { fld13vnn5ljLr37g1: 'Cancelled' }),
    ]);
    assert.equal(aimed.severity, 'high');
    assert.match(
      aimed.reason,
      /whoever writes the input can choose what module 3 \(`airtable:ActionUpdateRecords`\) changes \(`id`\)/,
    );
    const search = m(3, 'airtable:ActionSearchRecords', {
      parameters: { __IMTCONN__: 3165549 },
      mapper: {
        base: 'appAfzlWKGj7n5GQq',
        table: 'tbl4hjlfMYw78eK9Z',
        formula: '{Message ID} = "{{1.id}}"',
        maxRecords: '1',
      },
    });
    const stored = ai2([
      gmail,
      gpt(2, 'Summarise this e-mail in two lines:\n{{1.text}}'),
      search,
      update(4, '{{3.id}}', { fldSummary: ANSWER }),
    ]);
    assert.equal(stored.severity, 'medium');
    assert.match(stored.reason, /module 4 \(`airtable:ActionUpdateRecords`\) stores it for people to read/);
  });

  it('request: the model writes the address an HTTP module fetches (high); the same output as a query value on a fixed host is medium', () => {
    const get = (id: number, url: string) =>
      handled(
        m(id, 'http:ActionSendData', {
          version: 3,
          mapper: { url, method: 'get', headers: [], qs: [], parseResponse: true },
        }),
        id + 100,
      );
    const fetched = ai2([hook, gpt(2, 'Find the link in this message, URL only: {{1.text}}'), get(3, ANSWER)]);
    assert.equal(fetched.severity, 'high');
    assert.match(fetched.reason, /module 3 \(`http:ActionSendData`\) requests an address the model writes \(SEC-6\)/);
    const query = ai2([
      hook,
      gpt(2, 'Find the product name in this message: {{1.text}}'),
      get(3, `https://api.example.com/v1/products?q=${ANSWER}`),
    ]);
    assert.equal(query.severity, 'medium');
    assert.match(query.reason, /module 3 \(`http:ActionSendData`\) uses it to look up or compute/);
  });

  it("deliver: an SMS back to the From of the webhook payload that started the run (its submitter), an e-mail reply to the trigger mail's sender, a chat bot's answer and a Slack post are medium (issue 32: sender and owner audiences)", () => {
    const sms = handled(
      m(3, 'twilio:SendSMS', {
        parameters: { __IMTCONN__: 77 },
        mapper: { from: '+15550001111', to: '{{1.From}}', body: ANSWER },
      }),
      103,
    );
    const texted = ai2([hook, gpt(2, 'Reply to this SMS: {{1.Body}}'), sms]);
    assert.equal(texted.severity, 'medium');
    assert.match(
      texted.reason,
      /module 3 \(`twilio:SendSMS`\) answers by SMS the person who submitted the trigger's form or payload/,
    );
    const reply = handled(
      m(3, 'google-email:sendAnEmail', {
        parameters: { __IMTCONN__: 8287811 },
        mapper: { to: ['{{1.from.address}}'], subject: 'Re: {{1.subject}}', bodyType: 'rawHtml', content: ANSWER },
      }),
      103,
    );
    const mailed = ai2([gmail, gpt(2, 'Write a friendly answer to this e-mail:\n{{1.text}}'), reply]);
    assert.equal(mailed.severity, 'medium');
    assert.match(
      mailed.reason,
      /module 3 \(`google-email:sendAnEmail`\) answers by e-mail the person who wrote \(`\{\{1\.from\.address\}\}`\)/,
    );
    const bot = handled(
      m(3, 'telegram:SendReplyMessage', {
        parameters: { __IMTCONN__: 55 },
        mapper: { chatId: '{{1.message.chat.id}}', text: ANSWER },
      }),
      103,
    );
    const asked = ai2([telegram, gpt(2, 'Answer as the shop assistant: {{1.message.text}}'), bot], true);
    assert.equal(asked.severity, 'medium');
    assert.match(asked.reason, /module 3 \(`telegram:SendReplyMessage`\) answers by chat message the person who wrote/);
    const team = ai2([gmail, gpt(2, 'Write a reply to this e-mail:\n{{1.text}}'), slack(3, ANSWER)]);
    assert.equal(team.severity, 'medium');
    assert.match(team.reason, /posts it in the team's own workspace/);
  });

  it('a category that only selects which owner record another model reads is medium; the look-up e-mailed as is to an address from the data is high (make-extra tabinda-fatima shape)', () => {
    const classify = gpt(2, 'Classify this e-mail as billing, support or sales; answer with one word:\n{{1.text}}');
    const lookup = handled(
      m(3, 'google-sheets:filterRows', {
        parameters: { __IMTCONN__: 5 },
        mapper: { spreadsheetId: '/1abc', sheetId: 'Instructions', filter: [[{ a: 'A', b: ANSWER, o: 'text:equal' }]] },
      }),
      103,
    );
    const answer = handled(
      m(4, 'openai-gpt-3:CreateCompletion', {
        parameters: { __IMTCONN__: 11706863 },
        mapper: {
          select: 'chat',
          model: 'gpt-4o-mini',
          max_tokens: '300',
          messages: [
            { role: 'system', content: '{{3.`1`}}' },
            { role: 'user', content: 'Reply to the customer.' },
          ],
        },
      }),
      104,
    );
    const reply = (content: string, to = '{{1.from.address}}') =>
      handled(
        m(5, 'google-email:sendAnEmail', {
          parameters: { __IMTCONN__: 8287811 },
          mapper: { to: [to], subject: 'Re: {{1.subject}}', bodyType: 'rawHtml', content },
        }),
        105,
      );
    const viaModel = ai2([gmail, classify, lookup, answer, reply('{{4.choices[].message.content}}')]);
    assert.equal(viaModel.severity, 'medium');
    assert.match(viaModel.reason, /its output cannot act: .*\(also modules 4, 5\)/);
    assert.equal(
      ai2([gmail, classify, lookup, reply('{{3.`2`}}', '{{3.`3`}}')]).severity,
      'high',
      'the selected record itself is e-mailed to an address the record holds',
    );
    assert.equal(
      ai2([gmail, classify, lookup, reply('{{3.`2`}}')]).severity,
      'medium',
      'the selected record e-mailed back to the sender of the trigger mail only answers them',
    );
  });
  it('document: the text goes into a copied Google Doc whose link is e-mailed back to the submitted address and its link posted to Slack are medium (make j-ride shape)', () => {
    const copy = handled(
      m(3, 'google-drive:copyAFile', {
        parameters: { __IMTCONN__: 8677967 },
        mapper: {
          select: 'list',
          name: 'Proposal - {{1.client_name}}',
          copy: 'drive',
          destination: 'drive',
          file: '/1tmpl',
          folderId: '/1fold',
        },
      }),
      103,
    );
    const fill = handled(
      m(4, 'google-docs:replaceATextInADocument', {
        parameters: { __IMTCONN__: 8287952 },
        mapper: {
          destination: 'drive',
          document: '{{3.id}}',
          replaceText: [
            { oldText: '[CLIENT_NAME]', newText: '{{1.client_name}}' },
            { oldText: '[PROPOSAL_BODY]', newText: ANSWER },
          ],
        },
      }),
      104,
    );
    const mail = handled(
      m(5, 'google-email:sendAnEmail', {
        parameters: { __IMTCONN__: 8287811 },
        mapper: {
          to: ['{{1.email}}'],
          subject: 'Your proposal',
          bodyType: 'rawHtml',
          content: 'Dear {{1.client_name}}, your proposal is ready: {{3.webViewLink}}',
        },
      }),
      105,
    );
    const prompt =
      'Write a project proposal for {{1.client_name}}: {{1.project_type}} at {{1.lot_address}}. Notes: {{1.special_notes}}';
    const sent = ai2([hook, gpt(2, prompt), copy, fill, mail]);
    // The document goes back to the address of the submission that started the run (issue 32: sender, R12).
    assert.equal(sent.severity, 'medium');
    assert.match(
      sent.reason,
      /its output cannot act: module 4 \(`google-docs:replaceATextInADocument`\) stores it for people to read/,
    );
    const internal = ai2([hook, gpt(2, prompt), copy, fill, slack(5, 'New proposal: {{3.webViewLink}}')]);
    assert.equal(internal.severity, 'medium');
    assert.match(internal.reason, /module 4 \(`google-docs:replaceATextInADocument`\) stores it for people to read/);
  });

  it("decide: a filter on the model's verdict switches on a permanent delete (high); one that switches on a templated thank-you e-mail is medium (make-extra mihmol shape)", () => {
    const verdict = gpt(
      2,
      'Is this lead spam? Answer JSON {"is_spam": true|false}.\n{{1.name}} <{{1.email}}>: {{1.message}}',
    );
    const parse = m(3, 'json:ParseJSON', { mapper: { json: ANSWER } });
    const isSpam = { name: 'spam', conditions: [[{ a: '{{3.is_spam}}', o: 'boolean:equal', b: 'true' }]] };
    const remove = handled(
      m(4, 'google-drive:deleteAFile', {
        parameters: { __IMTCONN__: 7740843 },
        mapper: { fileId: '/1leadsheet', select: 'map', permanent: true },
        filter: isSpam,
      }),
      104,
    );
    const deleted = ai2([hook, verdict, parse, remove]);
    assert.equal(deleted.severity, 'high');
    assert.match(
      deleted.reason,
      /a filter on its output \(module 4\) decides whether module 4 \(`google-drive:deleteAFile`\) deletes data permanently/,
    );
    const thanks = handled(
      m(4, 'google-email:sendAnEmail', {
        parameters: { __IMTCONN__: 8231880 },
        filter: { ...isSpam, conditions: [[{ a: '{{3.is_spam}}', o: 'boolean:equal', b: 'false' }]] },
        mapper: {
          to: ['{{1.email}}'],
          subject: 'Thanks for reaching out',
          bodyType: 'rawHtml',
          content: 'Hi {{1.name}},\n\nThanks for getting in touch.',
        },
      }),
      104,
    );
    const templated = ai2([hook, verdict, parse, thanks]);
    assert.equal(templated.severity, 'medium');
    assert.match(templated.reason, /a filter on module 4 decides on it whether that route runs/);
  });
});

describe('AI-2 is low when nothing uses the injected output', () => {
  it('low and a warning when no later module reads the output (an error route quoting the failure does not); medium once a sheet row stores it', () => {
    const failing = {
      ...gpt(2, 'Classify this e-mail: {{1.text}}'),
      onerror: [slack(4, 'Classification failed: {{2.error.message}}'), m(5, 'builtin:Ignore')],
    };
    const unused = ai2([gmail, failing, slack(3, 'New e-mail from {{1.from.address}}')]);
    assert.deepEqual([unused.severity, unused.status], ['low', 'warn']);
    assert.match(unused.reason, /its output is not used by any later module/);
    const row = handled(
      m(3, 'google-sheets:addRow', {
        version: 2,
        parameters: { __IMTCONN__: 9380966 },
        mapper: {
          mode: 'select',
          from: 'drive',
          spreadsheetId: '/1yj68',
          sheetId: 'Inbox',
          values: { 0: '{{1.subject}}', 1: ANSWER },
        },
      }),
      103,
    );
    const stored = ai2([gmail, gpt(2, 'Classify this e-mail: {{1.text}}'), row]);
    assert.deepEqual([stored.severity, stored.status], ['medium', 'fail']);
  });
});
