/**
 * AI-8 (issue 32, "an agent's settings count too"): an AI agent's tool that writes, sends or deletes
 * and runs without approval (`approvalMode: auto-run`, Make AI Agents API), and an agent with tools
 * and no recursion limit. Our own small blueprints, never corpus copies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m, type Mod } from '../../helpers/blueprints.js';
import { passes, violationOf } from '../../helpers/policy-assert.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const sheet = m(1, 'google-sheets:watchRows', { parameters: { spreadsheetId: 'x' } });
const send = (id: number) =>
  m(id, 'google-email:sendAnEmail', {
    parameters: { account: 3 },
    mapper: { to: ['{{2.to}}'], content: '{{2.body}}' },
  });
const read = (id: number) => m(id, 'google-calendar:getFreeBusyInformation', { mapper: { item: [{ id: 'me' }] } });
const draft = (id: number) =>
  m(id, 'google-email:createADraft', { parameters: { account: 3 }, mapper: { to: '{{2.to}}', content: '{{2.body}}' } });

/** A local agent reading `input`, with `tools` (each `{ name, flow, approvalMode? }`) and its model config. */
function agent(input: string, tools: Mod[], modelConfig: Record<string, unknown> = { recursionLimit: '10' }): Mod {
  return {
    ...m(2, 'ai-local-agent:RunLocalAIAgent', {
      parameters: { makeConnectionId: 1 },
      mapper: { message: input, systemPrompt: 'Help the sender.', modelConfig },
    }),
    tools,
  };
}
const tool = (name: string, flow: Mod[], approvalMode?: string): Mod => ({
  name,
  description: name,
  flow,
  ...(approvalMode === undefined ? {} : { approvalMode }),
});

/** AI-8's failing modules as `[id, severity, row]`. */
function judged(flow: Mod[]): [string, string, string | undefined][] {
  const v = violationOf(bp(flow), 'AI-8');
  assert.ok(v, 'AI-8 expected to report');
  return v.failing_modules.map((f) => [f.module_id, f.severity, f.evidence?.risk?.row]);
}

describe('AI-8 agent tools that act without approval', () => {
  it('reports a sending tool set to auto-run on an agent fed a public webhook at high (R27), on the sending module, with the path', () => {
    const flow = [hook, agent('{{1.message}}', [tool('Send mail', [send(3)], 'auto-run')])];
    assert.deepEqual(judged(flow), [['3', 'high', 'R27']]);
    const v = violationOf(bp(flow), 'AI-8')!;
    assert.deepEqual(
      v.failing_modules[0]!.evidence?.path?.map((s) => [s.module_id, s.role]),
      [
        ['1', 'source'],
        ['2', 'step'],
        ['3', 'sink'],
      ],
    );
    assert.match(v.failing_modules[0]!.reason, /tool `Send mail` sends through module 3 without approval/);
  });

  it('reports the same tool on an agent fed internal records at medium (R28)', () => {
    assert.deepEqual(judged([sheet, agent('{{1.`0`}}', [tool('Send mail', [send(3)], 'auto-run')])]), [
      ['3', 'medium', 'R28'],
    ]);
  });

  it('passes a tool that requires approval, a read-only or drafting tool on auto-run, and a tool whose approval mode the export does not state', () => {
    passes(bp([hook, agent('{{1.message}}', [tool('Send mail', [send(3)], 'manual')])]), 'AI-8');
    passes(
      bp([
        hook,
        agent('{{1.message}}', [tool('Free/busy', [read(3)], 'auto-run'), tool('Draft', [draft(4)], 'auto-run')]),
      ]),
      'AI-8',
    );
    passes(bp([hook, agent('{{1.message}}', [tool('Send mail', [send(3)])])]), 'AI-8');
  });

  it('reports an agent with tools and no recursion limit at low (R29), and nothing when the limit is set', () => {
    assert.deepEqual(judged([hook, agent('{{1.message}}', [tool('Free/busy', [read(3)])], {})]), [['2', 'low', 'R29']]);
    passes(bp([hook, agent('{{1.message}}', [tool('Free/busy', [read(3)])], { recursionLimit: '20' })]), 'AI-8');
  });
});
