/** PRIV-1 .. PRIV-6: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const source = m(1, 'google-sheets:watchRows', { version: 2, parameters: { limit: 10 } });
const ai = (id: number, content: string) =>
  m(id, 'openai-gpt-3:CreateCompletion', {
    mapper: { model: 'gpt-4o-mini', max_tokens: 300, messages: [{ role: 'user', content }] },
    onerror: breakHandler(id + 100),
  });

describe('PRIV-1 personal data to AI', () => {
  it('fails when an e-mail reaches a prompt, also through a variable', () => {
    const v = m(2, 'util:SetVariable2', { mapper: { name: 'who', value: '{{1.email}}' } });
    assert.deepEqual(
      failingIds(bp([source, v, ai(3, 'Write to {{2.who}}'), ai(4, 'Summarise {{1.notes}}')]), 'PRIV-1'),
      ['3'],
    );
  });
  it('raises special categories to critical', () => {
    assert.equal(violationOf(bp([source, ai(3, 'Patient {{1.diagnosis}}')]), 'PRIV-1')!.severity, 'critical');
  });
  it('passes without personal fields', () => {
    passes(bp([source, ai(3, 'Summarise {{1.notes}}')]), 'PRIV-1');
  });
});

describe('PRIV-2 personal data to generic HTTP', () => {
  it('warns for an HTTP request carrying a phone number', () => {
    assert.deepEqual(
      failingIds(
        bp([
          source,
          m(2, 'http:MakeRequest', {
            version: 4,
            mapper: { url: 'https://crm.example.com/x', method: 'post', data: '{"phone":"{{1.phone}}"}' },
          }),
        ]),
        'PRIV-2',
      ),
      ['2'],
    );
  });
  it('passes for an app module', () => {
    passes(bp([source, m(2, 'hubspotcrm:createContact', { mapper: { email: '{{1.email}}' } })]), 'PRIV-2');
  });
});

describe('PRIV-3 personal data kept in execution logs', () => {
  const flow = [
    source,
    m(2, 'hubspotcrm:createContact', { mapper: { email: '{{1.email}}' }, onerror: breakHandler(9) }),
  ];
  it('fails when not confidential', () => {
    assert.deepEqual(failingIds(bp(flow, { confidential: false }), 'PRIV-3'), ['2']);
  });
  it('passes when confidential', () => {
    passes(bp(flow, { confidential: true }), 'PRIV-3');
  });
});

describe('PRIV-4 transfer outside the EU zone', () => {
  it('fails for an EU zone sending personal data to a US-hosted AI API', () => {
    assert.deepEqual(failingIds(bp([source, ai(3, 'Hi {{1.first_name}}')], {}, { zone: 'eu2.make.com' }), 'PRIV-4'), [
      '3',
    ]);
  });
  it('passes in a US zone, or without personal data', () => {
    passes(bp([source, ai(3, 'Hi {{1.first_name}}')], {}, { zone: 'us1.make.com' }), 'PRIV-4');
    passes(bp([source, ai(3, 'Summarise {{1.notes}}')], {}, { zone: 'eu1.make.com' }), 'PRIV-4');
  });
});

describe('PRIV-5 personal data embedded in the blueprint', () => {
  it('warns for literal addresses in fields and connection labels, redacted', () => {
    const b = bp([
      m(2, 'google-email:sendAnEmail', {
        mapper: { to: ['jane.doe@acme-corp.com'] },
        metadata: {
          designer: { x: 0, y: 0 },
          restore: { parameters: { __IMTCONN__: { label: 'Gmail (ops.lead@acme-corp.com)' } } },
        },
      }),
    ]);
    assert.deepEqual(failingIds(b, 'PRIV-5'), ['2', '2']);
    assert.ok(!JSON.stringify(violationOf(b, 'PRIV-5')).includes('jane.doe@'));
  });
  it('passes for mapped and example addresses', () => {
    passes(
      bp([m(2, 'google-email:sendAnEmail', { mapper: { to: ['{{1.email}}', 'someone@example.com'] } })]),
      'PRIV-5',
    );
  });
});

describe('PRIV-6 sensitive personal data sent on', () => {
  it('fails for a card number written to a sheet', () => {
    assert.deepEqual(
      failingIds(
        bp([
          source,
          m(2, 'google-sheets:addRow', {
            version: 2,
            mapper: { values: { 0: '{{1.card_number}}' } },
            onerror: breakHandler(9),
          }),
        ]),
        'PRIV-6',
      ),
      ['2'],
    );
  });
  it('passes for ordinary personal data', () => {
    passes(
      bp([
        source,
        m(2, 'google-sheets:addRow', {
          version: 2,
          mapper: { values: { 0: '{{1.email}}' } },
          onerror: breakHandler(9),
        }),
      ]),
      'PRIV-6',
    );
  });
});
