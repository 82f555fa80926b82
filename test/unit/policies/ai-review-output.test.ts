/**
 * AI policies after the issue 14 review (labelled precision set): a Telegram message to one fixed
 * private chat, or any recipient written in the scenario, is the owner's own (AI-1; issue 32); stored incomplete executions make a missing AI error route
 * low (AI-3); only calls that generate text need an output limit, decided by the module table
 * (AI-5); notifications to the team, drafts and records marked for review are the review step, not
 * an action on the output (AI-6). Real-shaped modules (names and mapper keys of the corpus exports),
 * our own values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../../src/engine/index.js';
import { classify } from '../../../src/engine/blueprint/classify.js';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const sheet = m(1, 'google-sheets:watchRows', { version: 2, parameters: { __IMTCONN__: 3, limit: 10 } });
const handled = (mod: Mod): Mod => ({ ...mod, onerror: breakHandler(Number(mod['id']) + 100) });
const gemini = (id: number) =>
  handled(
    m(id, 'gemini-ai:createACompletionGeminiPro', {
      mapper: {
        model: 'gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ type: 'text', text: 'Write a short update about {{1.`0`}}' }] }],
        generationConfig: { maxOutputTokens: 400 },
      },
    }),
  );
const severities = (b: unknown, code: string) =>
  violationOf(b, code)!.failing_modules.map((f) => [f.module_id, f.severity]);

describe('AI-1: a Telegram message to one fixed private chat goes to the bot owner', () => {
  const telegram = (id: number, chatId: string) =>
    handled(
      m(id, 'telegram:SendReplyMessage', {
        parameters: { __IMTCONN__: 9 },
        mapper: { chatId, text: '{{2.result}}', parseMode: '' },
      }),
    );

  it('does not report a fixed positive chat id (a private chat with the user who set the bot up)', () => {
    const b = bp([sheet, gemini(2), telegram(3, '2074700000')]);
    passes(b, 'AI-1');
    passes(b, 'AI-4');
  });

  it("reports a public channel name (a post) and a chat id taken from the data at high; a literal group or channel id is the owner's (issue 32)", () => {
    const b = bp([
      sheet,
      gemini(2),
      telegram(3, '-1002074700000'),
      telegram(4, '-4012345678'),
      telegram(5, '@acme_news'),
      telegram(6, '{{1.`3`}}'),
    ]);
    assert.deepEqual(severities(b, 'AI-1'), [
      ['5', 'high'],
      ['6', 'high'],
    ]);
  });

  it("does not report a fixed e-mail address: a recipient written in the scenario is the owner's (issue 32)", () => {
    const b = bp([
      sheet,
      gemini(2),
      handled(
        m(3, 'email:ActionSendEmail', {
          parameters: { account: 5 },
          mapper: { to: ['jane.roe@gmail.com'], subject: 'Update', text: '{{2.result}}', contentType: 'text' },
        }),
      ),
    ]);
    passes(b, 'AI-1');
  });
});

describe('AI-3: stored incomplete executions retry rate-limit, time-out and connection errors', () => {
  const bare = m(2, 'openai-gpt-3:CreateCompletion', {
    mapper: { model: 'gpt-4o-mini', max_tokens: 300, messages: [{ role: 'user', content: '{{1.`0`}}' }] },
  });

  it('reports a missing error route at low when dlq is on', () => {
    assert.deepEqual(severities(bp([sheet, bare], { dlq: true }), 'AI-3'), [['2', 'low']]);
  });

  it('reports it at medium when incomplete executions are not stored', () => {
    assert.deepEqual(severities(bp([sheet, bare], { dlq: false }), 'AI-3'), [['2', 'medium']]);
  });
});

describe('AI-5: only calls that generate text need an output limit (module table)', () => {
  it('leaves out image generation, a staged file upload, a voice-agent phone call and an unconfigured module', () => {
    const b = bp([
      sheet,
      handled(
        m(2, 'openai-gpt-3:GenerateImage', {
          mapper: {
            model: 'dall-e-3',
            prompt: '{{1.`0`}}',
            size: '1024x1024',
            quality: 'standard',
            response_format: 'url',
          },
        }),
      ),
      handled(
        m(3, 'dumplingai:generateAiImageFluxSchnell', {
          mapper: { prompt: '{{1.`0`}}', input: { aspect_ratio: '1:1' } },
        }),
      ),
      handled(m(4, 'gemini-ai:uploadAFile', { mapper: { fileName: '{{1.`1`}}', data: '{{1.`2`}}' } })),
      handled(
        m(5, 'http:ActionSendData', {
          version: 3,
          mapper: {
            url: 'https://api.vapi.ai/call/phone',
            method: 'post',
            bodyType: 'raw',
            data: '{"assistantId":"a1","customer":{"number":"{{1.`3`}}"},"maxDurationSeconds":300}',
          },
        }),
      ),
      handled(m(6, 'ai-tools:Extract', { mapper: { text: '{{1.`0`}}', fields: [{ name: 'count', type: 'number' }] } })),
      { id: 7, module: 'openai-gpt-3:CreateCompletion', version: 1, metadata: { designer: {} } },
    ]);
    passes(b, 'AI-5');
  });

  it('reports text generation without a limit: a completion and an image description', () => {
    const b = bp([
      sheet,
      handled(
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: { model: 'gpt-4o', select: 'chat', messages: [{ role: 'user', content: '{{1.`0`}}' }] },
        }),
      ),
      handled(
        m(3, 'openai-gpt-3:analyzeImages', {
          mapper: {
            model: 'gpt-4o',
            prompt: 'Describe this photo',
            images: [{ imageUrl: '{{1.`4`}}', imageUploadType: 'url' }],
          },
        }),
      ),
    ]);
    assert.deepEqual(failingIds(b, 'AI-5'), ['2', '3']);
  });

  it('classifies what an AI call returns from the table, else from the action words', () => {
    const r = parseBlueprint(
      bp([
        sheet,
        m(2, 'openai-gpt-3:GenerateImage'),
        m(3, 'gemini-ai:uploadAFile'),
        m(4, 'openai-gpt-3:CreateCompletion'),
        m(5, 'openai-gpt-3:CreateTranscription'),
        m(6, 'elevenlabs:textToSpeech'),
        m(7, 'http:ActionSendData', { mapper: { url: 'https://api.vapi.ai/call/phone', method: 'post' } }),
        m(8, 'google-sheets:addRow'),
      ]),
    );
    assert.ok(r.ok);
    assert.deepEqual(
      r.graph.modules.slice(1).map((x) => classify(x).output),
      ['image', 'file', 'text', 'data', 'audio', null, null],
    );
  });
});

describe('AI-6: a module that puts AI output before a person does not act on it', () => {
  const parsed = {
    id: 3,
    module: 'json:ParseJSON',
    version: 1,
    parameters: { type: 7 },
    mapper: { json: '{{2.result}}' },
    metadata: { designer: {} },
  };
  const own = {
    restore: { parameters: { __IMTCONN__: { label: 'My Google connection (ops@acme-dental.es)' } } },
    designer: {},
  };

  it('passes for a team notification, a mail to the own domain, a draft, a record marked for review and the draft record it links', () => {
    const b = bp([
      sheet,
      gemini(2),
      parsed,
      handled(
        m(4, 'airtable:ActionCreateRecord', {
          mapper: {
            base: 'app1',
            table: 'tblDrafts',
            record: { fldDraft: '{{3.draft_reply}}', fldCategory: '{{3.category}}' },
          },
        }),
      ),
      handled(
        m(5, 'airtable:ActionCreateRecord', {
          mapper: {
            base: 'app1',
            table: 'tblReviews',
            record: { fldDraft: ['{{4.id}}'], fldStatus: 'Pending Review', fldText: '{{3.draft_reply}}' },
          },
        }),
      ),
      handled(
        m(6, 'slack:CreateMessage', {
          mapper: { channel: 'C0123', text: 'New lead ready for review\nCategory: {{3.category}}' },
        }),
      ),
      handled(
        m(7, 'google-email:sendAnEmail', {
          metadata: own,
          mapper: { to: ['sales@acme-dental.es'], subject: 'Review', content: '{{3.summary}}' },
        }),
      ),
      handled(
        m(8, 'google-email:createADraft', {
          mapper: { to: ['{{1.`3`}}'], subject: 'Re', content: '{{3.draft_reply}}' },
        }),
      ),
      handled(
        m(9, 'google-sheets:updateRow', {
          mapper: {
            rowNumber: '{{1.`__ROW_NUMBER__`}}',
            values: { 3: '{{3.image_url}}', 4: 'Pendiente de aprobación' },
          },
        }),
      ),
    ]);
    passes(b, 'AI-6');
  });

  it('reports a record written without a review status and a CRM update', () => {
    const b = bp([
      sheet,
      gemini(2),
      parsed,
      handled(
        m(4, 'airtable:ActionCreateRecord', {
          mapper: {
            base: 'app1',
            table: 'tblLeads',
            record: { fldCategory: '{{3.category}}', fldStatus: 'Qualified' },
          },
        }),
      ),
      handled(m(5, 'hubspotcrm:updateContact', { mapper: { contactId: '{{1.`5`}}', note: '{{3.summary}}' } })),
    ]);
    assert.deepEqual(failingIds(b, 'AI-6'), ['4', '5']);
  });
});
