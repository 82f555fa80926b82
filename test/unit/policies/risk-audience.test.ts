/**
 * Issue 32, risk model: the audience of a sink (`risk/audience.ts`) and the AI-1 rows it sets. A
 * literal recipient is the owner's even through a set-variable module; an e-mail to the trigger
 * mail's own sender is a reply to the sender, like a chat reply; a recipient taken from the data
 * (a sheet row, a form answer, a webhook payload) is a third party; a post is public. Our own small
 * blueprints with the module names and mapper keys Make exports.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../../src/engine/index.js';
import { Analysis } from '../../../src/engine/analysis.js';
import { audienceOf } from '../../../src/engine/risk/audience.js';
import { AI_1 } from '../../../src/engine/policies/ai/AI-1.js';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';

const handled = (mod: Mod): Mod => ({ ...mod, onerror: breakHandler(Number(mod['id']) + 100) });
const gmailTrigger = m(1, 'google-email:TriggerNewEmail', { parameters: { account: 1, folder: 'INBOX' } });
const sheetTrigger = m(1, 'google-sheets:watchRows', { parameters: { __IMTCONN__: 3, limit: 10 } });
const gpt = (id: number, content: string) =>
  handled(
    m(id, 'openai-gpt-3:CreateCompletion', {
      mapper: { model: 'gpt-4o-mini', max_tokens: 300, select: 'chat', messages: [{ role: 'user', content }] },
    }),
  );
const mail = (id: number, to: string, content = '{{2.choices[].message.content}}') =>
  handled(m(id, 'google-email:sendAnEmail', { mapper: { to: [to], subject: 'Hello', bodyType: 'rawHtml', content } }));

function analysis(flow: Mod[]): Analysis {
  const r = parseBlueprint(bp(flow));
  assert.ok(r.ok);
  return new Analysis(r.graph);
}

describe('risk audience: owner, sender, third party, public (issue 32)', () => {
  it('a literal address is the owner\u2019s, also when it passes through Set variable, Set multiple variables or Get variable', () => {
    const a = analysis([
      sheetTrigger,
      m(5, 'util:SetVariable2', { mapper: { name: 'notify', scope: 'roundtrip', value: 'ops@acme.io' } }),
      m(6, 'util:SetVariables', {
        mapper: {
          scope: 'roundtrip',
          variables: [
            { name: 'boss', value: 'boss@acme.io' },
            { name: 'lead', value: '{{1.`2`}}' },
          ],
        },
      }),
      m(7, 'util:GetVariable2', { mapper: { name: 'notify' } }),
      gpt(2, 'Summarise {{1.`0`}}'),
      mail(3, '{{5.notify}}'),
      mail(4, '{{6.boss}}'),
      mail(8, '{{7.notify}}'),
      mail(9, '{{6.lead}}'),
    ]);
    for (const id of ['3', '4', '8']) {
      const d = audienceOf(a, a.module(id));
      assert.equal(d?.audience, 'owner', id);
      assert.equal(d?.basis, 'literal', id);
    }
    assert.equal(audienceOf(a, a.module('9'))?.audience, 'third-party', 'a variable holding a sheet column is data');
    const outcome = AI_1.evaluate(a, {});
    assert.deepEqual(
      outcome?.findings.map((f) => [f.moduleId, f.severity, f.risk?.id]),
      [['9', 'high', 'R2']],
    );
  });

  it('an e-mail to the trigger mail\u2019s sender, and a reply to it, answer the sender (R3, low) like a chat reply', () => {
    const a = analysis([
      gmailTrigger,
      gpt(2, 'Answer this e-mail: {{1.text}}'),
      m(4, 'util:SetVariables', { mapper: { variables: [{ name: 'who', value: '{{1.from.address}}' }] } }),
      mail(3, '{{4.who}}'),
      handled(
        m(5, 'google-email:replyToAnEmail', {
          mapper: { threadId: '{{1.threadId}}', bodyType: 'collection', contents: [{ text: '{{2.result}}' }] },
        }),
      ),
      mail(6, '{{1.to[].address}}'),
    ]);
    assert.equal(audienceOf(a, a.module('3'))?.audience, 'sender');
    assert.equal(audienceOf(a, a.module('5'))?.audience, 'sender');
    assert.equal(audienceOf(a, a.module('6'))?.audience, 'third-party', 'a recipient of the mail is not its sender');
    const findings = AI_1.evaluate(a, {})!.findings;
    const three = findings.find((f) => f.moduleId === '3')!;
    assert.equal(three.severity, 'low');
    assert.equal(three.risk?.id, 'R3');
    assert.equal(three.risk?.audience, 'sender');
    assert.deepEqual(
      three.path?.map((s) => [s.moduleId, s.role]),
      [
        ['2', 'source'],
        ['3', 'sink'],
      ],
    );
  });

  it('an address typed into the form or the custom webhook payload that started the run is its sender (issue 32: the person who triggered it)', () => {
    const form = analysis([
      m(1, 'google-forms:watchResponses', { parameters: { __IMTCONN__: 4, formId: 'abc' } }),
      gpt(2, 'Write a welcome for {{1.answers.`1a2b3c4d`.textAnswers.answers[].value}}'),
      mail(3, '{{1.answers.`5e6f7a8b`.textAnswers.answers[].value}}'),
    ]);
    assert.equal(audienceOf(form, form.module('3'))?.audience, 'sender');
    assert.equal(audienceOf(form, form.module('3'))?.basis, 'submitter');
    const hook = analysis([
      m(1, 'gateway:CustomWebHook', { parameters: { hook: 7, maxResults: 1 } }),
      gpt(2, 'Reply to: {{1.Body}}'),
      handled(m(3, 'twilio:SendSMS', { mapper: { to: '{{1.From}}', body: '{{2.result}}', from: '+15550100' } })),
    ]);
    assert.equal(audienceOf(hook, hook.module('3'))?.audience, 'sender');
  });

  it('a chat reply to the chat that wrote is the sender; a post and a public channel name are public (R1)', () => {
    const a = analysis([
      m(1, 'telegram:WatchUpdates', { parameters: { __IMTHOOK__: 9 } }),
      gpt(2, 'Answer: {{1.message.text}}'),
      handled(m(3, 'telegram:SendReplyMessage', { mapper: { chatId: '{{1.message.chat.id}}', text: '{{2.result}}' } })),
      handled(m(4, 'telegram:SendReplyMessage', { mapper: { chatId: '@acme_channel', text: '{{2.result}}' } })),
      handled(m(5, 'linkedin:CreatePost', { mapper: { content: '{{2.result}}', visibility: 'PUBLIC' } })),
    ]);
    assert.equal(audienceOf(a, a.module('3'))?.audience, 'sender');
    assert.equal(audienceOf(a, a.module('4'))?.audience, 'public');
    const rows = AI_1.evaluate(a, {})!.findings.map((f) => [f.moduleId, f.risk?.id]);
    assert.deepEqual(rows, [
      ['3', 'R3'],
      ['4', 'R1'],
      ['5', 'R1'],
    ]);
  });
});
