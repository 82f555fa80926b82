/** ARC-3 .. ARC-9: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const labeled = (id: number, label: string | null) => m(id, 'util:SetVariable2', { metadata: { designer: { x: 0, y: 0, ...(label ? { name: label } : {}) } } });

describe('ARC-3 default module labels', () => {
  it('warns when most modules of a larger scenario are unlabeled', () => {
    const flow = Array.from({ length: 12 }, (_, i) => labeled(i + 1, i < 3 ? `Step ${i}` : null));
    assert.deepEqual(failingIds(bp(flow), 'ARC-3'), ['4', '5', '6', '7', '8', '9', '10', '11', '12']);
  });
  it('passes when most are labeled, and for small scenarios', () => {
    passes(bp(Array.from({ length: 12 }, (_, i) => labeled(i + 1, i < 8 ? `Step ${i}` : null))), 'ARC-3');
    passes(bp([labeled(1, null), labeled(2, null)]), 'ARC-3');
  });
});

describe('ARC-4 deprecated modules', () => {
  it('reports legacy HTTP, Sheets v1 and retired OpenAI models with their severities', () => {
    const b = bp([m(1, 'http:ActionSendData', { version: 3 }), m(2, 'google-sheets:addRow', { version: 1 }), m(3, 'openai-gpt-3:CreateCompletion', { mapper: { model: 'text-davinci-003' } })]);
    assert.deepEqual(failingIds(b, 'ARC-4'), ['1', '2', '3']);
    assert.deepEqual(violationOf(b, 'ARC-4')!.failing_modules.map((f) => f.severity), ['low', 'medium', 'high']);
  });
  it('passes for current modules', () => {
    passes(bp([m(1, 'http:MakeRequest', { version: 4 }), m(2, 'google-sheets:addRow', { version: 2 }), m(3, 'openai-gpt-3:CreateCompletion', { mapper: { model: 'gpt-4o-mini' } })]), 'ARC-4');
  });
});

describe('ARC-5 hard-coded environment ids', () => {
  it('warns for Make API URLs with literal ids', () => {
    assert.deepEqual(failingIds(bp([m(4, 'http:MakeRequest', { version: 4, mapper: { url: 'https://eu1.make.com/api/v2/scenarios/123456/run?teamId=42' } })]), 'ARC-5'), ['4']);
  });
  it('passes for variables', () => {
    passes(bp([m(4, 'http:MakeRequest', { version: 4, mapper: { url: 'https://eu1.make.com/api/v2/scenarios/{{var.scenario}}/run' } })]), 'ARC-5');
  });
});

describe('ARC-6 unconfigured module', () => {
  it('fails for a placeholder slot and an unconfigured module', () => {
    assert.deepEqual(failingIds(bp([m(null, 'placeholder:Placeholder'), m(2, 'email:ActionSendMeEmail', { parameters: null, mapper: null })]), 'ARC-6'), ['unnumbered-1', '2']);
  });
  it('passes for configured modules and routers', () => {
    passes(bp([m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes: [] }), m(2, 'email:ActionSendMeEmail', { mapper: { text: 'x' } })]), 'ARC-6');
  });
});

describe('ARC-7 disabled routes', () => {
  it('warns for disabled routes on the router', () => {
    assert.deepEqual(failingIds(bp([m(1, 'builtin:BasicRouter', { mapper: null, parameters: { else: 0 }, routes: [{ flow: [m(2, 'util:SetVariable2')] }, { flow: [m(3, 'util:SetVariable2')], disabled: true }] })]), 'ARC-7'), ['1']);
  });
  it('passes when all routes are enabled', () => {
    passes(bp([m(1, 'builtin:BasicRouter', { mapper: null, parameters: { else: 0 }, routes: [{ flow: [m(2, 'util:SetVariable2')] }] })]), 'ARC-7');
  });
});

describe('ARC-8 filter without conditions', () => {
  it('warns for a named filter with no conditions', () => {
    assert.deepEqual(failingIds(bp([m(1, 'util:SetVariable2'), m(2, 'util:SetVariable2', { filter: { name: 'Only paid', conditions: [] } })]), 'ARC-8'), ['2']);
  });
  it('passes for a real condition', () => {
    passes(bp([m(2, 'util:SetVariable2', { filter: { name: 'Only paid', conditions: [[{ a: '{{1.s}}', o: 'exist' }]] } })]), 'ARC-8');
  });
});

describe('ARC-9 default scenario name', () => {
  it('warns for a generated name', () => {
    assert.equal(violationOf({ ...bp([m(1, 'util:SetVariable2')]), name: 'Integration Webhooks, Google Sheets' }, 'ARC-9')?.status, 'warn');
  });
  it('passes for a meaningful name', () => {
    passes({ ...bp([m(1, 'util:SetVariable2')]), name: 'Orders: intake to fulfilment' }, 'ARC-9');
  });
});
