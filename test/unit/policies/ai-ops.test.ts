/** AI-1 .. AI-7 and OPS-1 .. OPS-4: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const trigger = m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 10 } });
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const ai = (id: number, content: string, extra: Record<string, unknown> = {}) =>
  m(id, 'openai-gpt-3:CreateCompletion', {
    mapper: { model: 'gpt-4o-mini', max_tokens: 300, messages: [{ role: 'user', content }] },
    onerror: breakHandler(id + 100),
    ...extra,
  });
const send = (id: number, text: string) =>
  m(id, 'slack:CreateMessage', { mapper: { channel: 'C1', text }, onerror: breakHandler(id + 100) });
/** An e-mail to a customer taken from the trigger's row (a third party). */
const mail = (id: number, content: string) =>
  m(id, 'google-email:sendAnEmail', {
    version: 4,
    mapper: { to: ['{{1.email}}'], subject: 'Your request', bodyType: 'rawHtml', content },
    onerror: breakHandler(id + 100),
  });

describe('AI-1 AI output sent without review', () => {
  it('fails for a message to a customer built from AI output', () => {
    assert.deepEqual(failingIds(bp([trigger, ai(2, 'Draft {{1.topic}}'), mail(3, '{{2.result}}')]), 'AI-1'), ['3']);
  });
  it("passes when the draft goes to a review queue, or the output to the team's Slack channel", () => {
    passes(
      bp([
        trigger,
        ai(2, 'Draft {{1.topic}}'),
        m(3, 'airtable:ActionCreateRecord', {
          mapper: { record: { Draft: '{{2.result}}', Status: 'Pending review' } },
          onerror: breakHandler(9),
        }),
      ]),
      'AI-1',
    );
    passes(bp([trigger, ai(2, 'Draft {{1.topic}}'), send(3, '{{2.result}}')]), 'AI-1');
  });
});

describe('AI-2 prompt from webhook input', () => {
  it('fails for a prompt containing webhook data', () => {
    assert.deepEqual(failingIds(bp([hook, ai(2, 'Answer: {{1.message}}')]), 'AI-2'), ['2']);
  });
  it('passes for a scheduled source', () => {
    passes(bp([trigger, ai(2, 'Answer: {{1.message}}')]), 'AI-2');
  });
});

describe('AI-3 AI call without error handling', () => {
  it('fails for an AI module without onerror', () => {
    assert.deepEqual(failingIds(bp([trigger, ai(2, 'x', { onerror: undefined })]), 'AI-3'), ['2']);
  });
  it('passes with a handler', () => {
    passes(bp([trigger, ai(2, 'x')]), 'AI-3');
  });
});

describe('AI-4 AI content without disclosure', () => {
  it('warns when the fixed text does not disclose AI', () => {
    assert.deepEqual(failingIds(bp([trigger, ai(2, 'x'), mail(3, 'Update: {{2.result}}')]), 'AI-4'), ['3']);
  });
  it('passes with a disclosure', () => {
    passes(bp([trigger, ai(2, 'x'), mail(3, '{{2.result}} (drafted with AI)')]), 'AI-4');
  });
});

describe('AI-5 AI call without an output limit', () => {
  it('warns without max_tokens, also for AI APIs called over HTTP', () => {
    const http = m(3, 'http:MakeRequest', {
      version: 4,
      mapper: { url: 'https://api.openai.com/v1/chat/completions', method: 'post', data: '{"model":"gpt-4o"}' },
      onerror: breakHandler(9),
    });
    assert.deepEqual(
      failingIds(bp([trigger, ai(2, 'x', { mapper: { model: 'gpt-4o', messages: [] } }), http]), 'AI-5'),
      ['2', '3'],
    );
  });
  it('passes with a limit in the mapper or the request body', () => {
    const http = m(3, 'http:MakeRequest', {
      version: 4,
      mapper: {
        url: 'https://api.openai.com/v1/chat/completions',
        method: 'post',
        data: '{"model":"gpt-4o","max_tokens":400}',
      },
      onerror: breakHandler(9),
    });
    passes(bp([trigger, ai(2, 'x'), http]), 'AI-5');
  });
});

describe('AI-6 AI output used without validation', () => {
  const write = (id: number, extra: Record<string, unknown> = {}) =>
    m(id, 'hubspotcrm:updateContact', { mapper: { note: '{{2.result}}' }, onerror: breakHandler(id + 100), ...extra });
  it('warns for a write of unchecked AI output', () => {
    assert.deepEqual(failingIds(bp([trigger, ai(2, 'x'), write(3)]), 'AI-6'), ['3']);
  });
  it('passes when a filter checks the output', () => {
    passes(
      bp([
        trigger,
        ai(2, 'x'),
        write(3, { filter: { name: 'valid', conditions: [[{ a: '{{2.result}}', o: 'exist' }]] } }),
      ]),
      'AI-6',
    );
  });
});

describe('AI-7 AI inventory', () => {
  it('lists every AI call with its provider and model', () => {
    const v = violationOf(
      bp([
        trigger,
        ai(2, 'x'),
        m(3, 'http:MakeRequest', {
          version: 4,
          mapper: { url: 'https://api.groq.com/openai/v1/chat/completions' },
          onerror: breakHandler(9),
        }),
      ]),
      'AI-7',
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['2', '3'],
    );
    assert.match(v.failing_modules[0]!.reason, /gpt-4o-mini/);
    assert.match(v.failing_modules[1]!.reason, /api\.groq\.com/);
    assert.equal(v.severity, 'info');
  });
  it('passes without AI', () => {
    passes(bp([trigger, send(2, 'x')]), 'AI-7');
  });
});

describe('OPS-1 no failure notification', () => {
  it('warns when writes exist and no error route notifies', () => {
    assert.equal(
      violationOf(bp([trigger, m(2, 'google-sheets:addRow', { version: 2, onerror: breakHandler(9) })]), 'OPS-1')
        ?.status,
      'warn',
    );
  });
  it('passes with a notifying error route', () => {
    passes(
      bp([
        trigger,
        m(2, 'google-sheets:addRow', {
          version: 2,
          onerror: [send(9, 'failed {{error.message}}'), ...breakHandler(10)],
        }),
      ]),
      'OPS-1',
    );
  });
  it('does not count a notification to the owner as a data change', () => {
    const push = m(3, 'ios:SendNotification', { mapper: { title: 'Done', body: '{{1.name}}' } });
    passes(
      bp([trigger, push, m(4, 'email:ActionSendMeEmail', { mapper: { subject: 'Digest', text: '{{1.name}}' } })]),
      'OPS-1',
    );
    const v = violationOf(bp([trigger, m(2, 'google-sheets:addRow', { version: 2 }), push]), 'OPS-1')!;
    assert.deepEqual(
      [v.severity, v.summary],
      ['medium', 'No error route notifies anyone, although 1 module change data'],
    );
  });
  it('is low when the scenario only sends messages to fixed recipients, medium for recipients from the data', () => {
    const to = (address: string) =>
      m(2, 'google-email:sendAnEmail', {
        version: 4,
        mapper: { to: [address], subject: 'Daily quote', content: '{{1.quote}}' },
      });
    assert.equal(violationOf(bp([trigger, to('reader@binghamton.example.edu')]), 'OPS-1')?.severity, 'low');
    assert.equal(
      violationOf(
        bp([trigger, m(2, 'telegram:SendReplyMessage', { mapper: { chatId: '-1001234567890', text: '{{1.quote}}' } })]),
        'OPS-1',
      )?.severity,
      'low',
    );
    assert.equal(violationOf(bp([trigger, to('{{1.email}}')]), 'OPS-1')?.severity, 'medium');
  });
});

describe('OPS-2 sleep modules', () => {
  it('warns for util:FunctionSleep', () => {
    assert.deepEqual(failingIds(bp([trigger, m(2, 'util:FunctionSleep', { mapper: { duration: '60' } })]), 'OPS-2'), [
      '2',
    ]);
  });
  it('passes without', () => {
    passes(bp([trigger]), 'OPS-2');
  });
});

describe('OPS-3 deactivation threshold', () => {
  it('warns for maxErrors 0 or above 10', () => {
    assert.equal(violationOf(bp([trigger], { maxErrors: 50 }), 'OPS-3')?.status, 'warn');
    assert.equal(violationOf(bp([trigger], { maxErrors: 0 }), 'OPS-3')?.status, 'warn');
  });
  it('passes for the default 3', () => {
    passes(bp([trigger], { maxErrors: 3 }), 'OPS-3');
  });
});

describe('OPS-4 polling trigger without a batch limit', () => {
  it('warns for a watch trigger without a limit', () => {
    assert.deepEqual(failingIds(bp([m(1, 'google-sheets:watchRows', { version: 2 })]), 'OPS-4'), ['1']);
  });
  it('recognises the Trigger… polling actions (Airtable, Email, Gmail)', () => {
    assert.deepEqual(
      failingIds(
        bp([m(1, 'airtable:TriggerWatchRecords', { version: 3, parameters: { base: 'appX', table: 'tblY' } })]),
        'OPS-4',
      ),
      ['1'],
    );
    assert.deepEqual(
      failingIds(bp([m(1, 'email:TriggerNewEmail', { version: 7, parameters: { folder: 'INBOX' } })]), 'OPS-4'),
      ['1'],
    );
    passes(bp([m(1, 'airtable:TriggerWatchRecords', { version: 3, parameters: { maxRecords: 100 } })]), 'OPS-4');
    passes(bp([m(1, 'google-email:TriggerNewEmail', { version: 2, parameters: { maxResults: 5 } })]), 'OPS-4');
  });
  it('passes with a limit, and for webhooks', () => {
    passes(bp([trigger]), 'OPS-4');
    passes(bp([hook]), 'OPS-4');
  });
});
