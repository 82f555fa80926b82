/**
 * Issue 14: SEC-5 severity from what a forged webhook call can make the scenario do. Real-shaped
 * modules (names, mapper keys and structures of the corpus exports), our own values; each high path
 * has its medium look-alike.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { violationOf } from '../../helpers/policy-assert.js';

/** A custom webhook as exported (hook id parameter, hook label in `metadata.restore`). */
const hook = (label = 'Website form', id = 1): Mod =>
  m(id, 'gateway:CustomWebHook', {
    parameters: { hook: 2607113, maxResults: 1 },
    metadata: { designer: { x: 0, y: 0 }, restore: { parameters: { hook: { label } } } },
  });
const handled = (mod: Mod, id: number): Mod => ({ ...mod, onerror: breakHandler(id) });
/** The one SEC-5 finding: severity, status and reason. */
function sec5(flow: Mod[]): { severity: string; status: string; reason: string } {
  const v = violationOf(bp(flow, {}, { instant: true }), 'SEC-5');
  assert.ok(v, 'SEC-5 expected to report');
  assert.equal(v.failing_modules.length, 1);
  return { severity: v.failing_modules[0]!.severity, status: v.status, reason: v.failing_modules[0]!.reason };
}

const leadRow = (id: number): Mod =>
  handled(
    m(id, 'google-sheets:addRow', {
      version: 2,
      mapper: {
        mode: 'select',
        from: 'drive',
        spreadsheetId: '/1o1gxhXAjamiwaYc9',
        sheetId: 'Sheet1',
        includesHeaders: true,
        values: { 0: '{{1.name}}', 1: '{{1.email}}', 2: '{{1.message}}', 3: 'New' },
      },
    }),
    id + 100,
  );
const thankYou = (id: number): Mod =>
  handled(
    m(id, 'google-email:sendAnEmail', {
      version: 4,
      mapper: {
        to: ['{{1.email}}'],
        subject: 'Thanks for reaching out',
        bodyType: 'rawHtml',
        content:
          'Hi {{1.name}},\n\nThanks for getting in touch. Someone from the team will get back to you shortly.\n\nBest,\nThe Team',
      },
    }),
    id + 100,
  );

describe('SEC-5 is high when forged input can aim the scenario', () => {
  it('high: the payload chooses, through variables, the Apps Script project a PUT overwrites (make amrit-dash-update-apps-script-code shape)', () => {
    const f = sec5([
      hook('Update script'),
      m(2, 'util:SetVariables', {
        mapper: {
          scope: 'roundtrip',
          variables: [
            { name: 'Target Script', value: '{{1.toUpdateScriptId}}' },
            { name: 'API KEY', value: 'YOUR_API_KEY_HERE' },
          ],
        },
      }),
      handled(
        m(3, 'http:ActionSendDataOAuth', {
          parameters: { account: 7 },
          mapper: {
            url: 'https://script.googleapis.com/v1/projects/{{2.`Target Script`}}/content',
            method: 'put',
            data: '{"files":[]}',
            bodyType: 'raw',
            headers: [],
            qs: [],
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /choose what module 3 \(`http:ActionSendDataOAuth`\) changes \(`url`\)/);
  });

  it("high: a record found by a search on the caller's phone is the record an update rewrites (make-extra tbauer79999 shape)", () => {
    const f = sec5([
      hook('Incoming SMS'),
      m(2, 'airtable:ActionSearchRecords', {
        mapper: {
          base: 'appAf',
          table: 'tbl4h',
          formula: '{Phone} = "{{1.From}}"',
          maxRecords: '1',
          useColumnId: false,
        },
      }),
      handled(
        m(3, 'airtable:ActionUpdateRecords', {
          mapper: {
            id: '{{2.id}}',
            base: 'appAf',
            table: 'tbl4h',
            record: { fld13: '"Unsubscribed"' },
            typecast: false,
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /module 3 .* changes \(`id`, through a lookup on their input\)/);
  });

  it("high: an SMS to the caller-supplied number whose body is AI text written from the caller's message (spam relay)", () => {
    const f = sec5([
      hook('Incoming SMS'),
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: {
            model: 'gpt-4o',
            select: 'chat',
            messages: [
              { role: 'system', content: 'You qualify home sellers.' },
              { role: 'user', content: '{{1.Body}}' },
            ],
          },
        }),
        20,
      ),
      handled(
        m(3, 'twilio:SendSMS', {
          mapper: {
            to: '{{1.From}}',
            body: '{{2.choices[].message.content}}',
            from: '+15550100',
            fromType: 'phone',
            messageBody: 'body',
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(
      f.reason,
      /make module 3 \(`twilio:SendSMS`\) send an SMS .* \(`body`\), to a recipient they choose \(`to`\)/,
    );
  });

  it("high: the caller's text is published as a Facebook page post", () => {
    const f = sec5([
      hook('Publish'),
      handled(m(2, 'facebook-pages:CreatePost', { mapper: { page: '1045', message: '{{1.text}}' } }), 20),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /publish their content through module 2/);
  });

  it('high: the payload is forwarded into a backend API with its shared-secret header (make-extra kairolopes shape)', () => {
    const f = sec5([
      hook('INBOUND_MESSAGE_HOOK'),
      handled(
        m(3, 'http:ActionSendData', {
          mapper: {
            url: 'https://inbox.example-app.com/api/inbox/webhook',
            method: 'post',
            bodyType: 'raw',
            contentType: 'application/json',
            data: '{"phone":"{{1.phone}}","text":"{{1.text.message}}"}',
            headers: [
              { name: 'content-type', value: 'application/json' },
              { name: 'x-make-secret', value: '{{var.organization.secret}}' },
            ],
            qs: [],
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /push their data into `inbox\.example-app\.com` through module 3 .*header `x-make-secret`/);
  });

  it('high: an IFTTT applet key in the URL path (make veracitylife-empty-integration shape)', () => {
    const f = sec5([
      hook('Post'),
      handled(
        m(8, 'http:ActionSendData', {
          mapper: {
            url: 'https://maker.ifttt.com/trigger/text_post/with/key/dK3xExampleKeyAbCdEfGhIj',
            method: 'post',
            bodyType: 'x_www_form_urlencoded',
            formFields: [{ key: 'value1', value: '{{1.text}}' }],
            headers: [],
            qs: [],
          },
        }),
        80,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /a key in the URL path/);
  });

  it('high: the caller instructs a Make AI agent, which acts with its tools (make vonage-community shape)', () => {
    const f = sec5([
      hook('WhatsApp inbound'),
      handled(
        m(5, 'ai-agent:RunAnAIAgent', {
          mapper: {
            agent: 'cbd95eda',
            messages: ['Customer number: {{1.from}}', '{{1.text}}'],
            threadID: '{{1.from}}',
          },
        }),
        50,
      ),
    ]);
    assert.equal(f.severity, 'high');
    assert.match(f.reason, /instruct the AI agent of module 5/);
  });

  it('high: a payment event (hook label, or payment-named fields) recorded as a paid invoice', () => {
    const invoice = (id: number) =>
      handled(
        m(id, 'airtable:ActionCreateRecord', {
          mapper: {
            base: 'appX',
            table: 'tblInv',
            record: { fldA: 'INV-{{1.order_id}}', fldB: '{{1.total_amount}}', fldC: 'Paid' },
          },
        }),
        id + 100,
      );
    const byFields = sec5([
      hook('Shop'),
      m(2, 'util:SetVariable2', { mapper: { name: 'status', scope: 'roundtrip', value: '{{1.payment_status}}' } }),
      invoice(3),
    ]);
    assert.equal(byFields.severity, 'high');
    assert.match(byFields.reason, /fake a payment or order event that module 3/);
    const byLabel = sec5([
      hook('RECIBIR PAGO'),
      handled(
        m(3, 'google-sheets:addRow', {
          mapper: { spreadsheetId: '/1abc', sheetId: 'Pagos', values: { 0: '{{1.data.reference}}' } },
        }),
        30,
      ),
    ]);
    assert.equal(byLabel.severity, 'high');
  });
});

describe('SEC-5 medium look-alikes: the caller cannot aim anything', () => {
  it("medium: a junk lead row in the owner's sheet and a templated thank-you to the submitted address", () => {
    const f = sec5([hook('Lux Home Leads'), leadRow(2), thankYou(3)]);
    assert.equal(f.severity, 'medium');
    assert.match(f.reason, /cannot choose what is changed, who receives it, or publish it/);
  });

  it('medium: variables that store one payload flag next to literal sheet ids (make amrit-dash cricket-bot shape)', () => {
    const f = sec5([
      hook('Cricket bot'),
      m(2, 'util:SetVariables', {
        mapper: {
          scope: 'roundtrip',
          variables: [
            { name: 'Fast Mode', value: '{{if(1.godMode; true; ignore)}}' },
            { name: 'Spreadsheet ID', value: '1tpkWrK7kQSY' },
            { name: 'History Sheet', value: 'History' },
          ],
        },
      }),
      handled(
        m(3, 'google-sheets:addRow', {
          mapper: {
            mode: 'map',
            spreadsheetId: '{{2.`Spreadsheet ID`}}',
            sheetId: '{{2.`History Sheet`}}',
            values: { 0: 'prediction' },
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'medium');
  });

  it("medium: an internal notification to a fixed Slack channel and to the team's Slack incoming webhook", () => {
    const f = sec5([
      hook('Leads'),
      handled(
        m(2, 'slack:CreateMessage', {
          mapper: {
            channelWType: 'list',
            channelType: 'public',
            channel: 'C0B4DK4K6TD',
            text: 'New lead: {{1.name}} <{{1.email}}>\n{{1.message}}',
          },
        }),
        20,
      ),
      handled(
        m(3, 'http:ActionSendData', {
          mapper: {
            url: 'https://hooks.slack.com/services/T000/B000/XXXX',
            method: 'post',
            bodyType: 'raw',
            data: '{"text":"{{1.message}}"}',
            headers: [],
            qs: [],
          },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'medium');
  });

  it('medium: a voice-agent tool webhook that has an AI parse the date, reads free/busy and answers the caller (make-extra 20mss012 shape)', () => {
    const f = sec5([
      hook('checkAvailability'),
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: {
            model: 'gpt-4o',
            select: 'chat',
            messages: [
              { role: 'system', content: 'Output {"startTime","endTime"} for the day asked.' },
              { role: 'user', content: '{{1.message.toolCalls[].function.arguments.when}}' },
            ],
          },
        }),
        102,
      ),
      handled(
        m(20, 'google-calendar:getFreeBusyInformation', {
          mapper: {
            item: [{ id: 'owner@example.com' }],
            timeMin: '{{2.choices[].message.content}}',
            timeMax: '{{2.choices[].message.content}}',
          },
        }),
        200,
      ),
      m(22, 'gateway:WebhookRespond', {
        mapper: {
          status: '200',
          body: '{"results":[{"toolCallId":"{{1.message.toolCalls[].id}}","result":"{{20.calendars}}"}]}',
          headers: [],
        },
      }),
    ]);
    assert.equal(f.severity, 'medium');
  });
});

describe('SEC-5 low: mail hooks and unused payloads', () => {
  it('low warning: a mail hook is an inbox that receives mail from anyone by design', () => {
    const f = sec5([
      m(2, 'gateway:CustomMailHook', { parameters: { hook: 88, maxResults: 1 } }),
      handled(
        m(4, 'airtable:upsertRecord', { mapper: { base: 'appI', table: 'tblX', record: { fldA: '{{2.text}}' } } }),
        40,
      ),
    ]);
    assert.deepEqual([f.severity, f.status], ['low', 'warn']);
  });

  it('low: the payload is never used, a caller can only choose when a fixed refresh runs (make nonsosky shape)', () => {
    const f = sec5([
      hook('Refresh'),
      handled(
        m(3, 'google-sheets:clearValuesFromRange', {
          mapper: { from: 'drive', range: 'A2:I1000', sheet: 'Latest', spreadsheetId: '/1P0x' },
        }),
        30,
      ),
    ]);
    assert.equal(f.severity, 'low');
    assert.match(f.reason, /payload is never used/);
  });
});
