/**
 * One literal secret is one finding with all its places (issue 32): two headers of one module, three
 * modules, a copy in sample data or in an orphan module; SEC-2 does not repeat SEC-1 on the same
 * literal; every string of the blueprint is read, `metadata.designer.orphans` included. Our own
 * blueprints and fake secrets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint } from '../../../src/engine/index.js';
import { bp, fakeToken, m } from '../../helpers/blueprints.js';
import { findingsOf, passes, placesOf, violationOf } from '../../helpers/policy-assert.js';

const http = (id: number, mapper: Record<string, unknown>) =>
  m(id, 'http:ActionSendData', { version: 3, mapper: { method: 'post', ...mapper } });
const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2607113, maxResults: 1 } });

describe('one finding per literal secret (SEC-1)', () => {
  it('one secret in two headers of one module is one finding with both places', () => {
    const key = fakeToken(401, 40);
    const b = bp([
      hook,
      http(2, {
        url: 'https://api.example.org/v1/send',
        headers: [
          { name: 'x-api-key', value: key },
          { name: 'Authorization', value: `Bearer ${key}` },
        ],
      }),
    ]);
    const v = violationOf(b, 'SEC-1')!;
    assert.equal(v.failing_modules.length, 1);
    assert.equal(v.failing_modules[0]!.evidence?.pointer, '/flow/1/mapper/headers/0/value');
    assert.match(v.failing_modules[0]!.reason, /also in module 2 `mapper\.headers\[1\]\.value` \(2 places\)/);
    assert.deepEqual(placesOf(b, 'SEC-1'), ['/flow/1/mapper/headers/0/value', '/flow/1/mapper/headers/1/value']);
  });
  it('the same literal in three modules is one finding on the first, naming the others; the remediation names all three', () => {
    const token = `EAA${fakeToken(402, 120)}`;
    const send = (id: number) =>
      http(id, {
        url: 'https://graph.facebook.com/v19.0/123456789012345/messages',
        headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
      });
    const b = bp([hook, send(2), send(3), send(4)]);
    const r = evaluateBlueprint(b, { scenarioId: 's1' });
    assert.ok(r.ok);
    const v = r.evaluation.violations.find((x) => x.policy === 'SEC-1')!;
    assert.deepEqual(
      v.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['2:high'],
    );
    assert.match(
      v.failing_modules[0]!.reason,
      /Meta .*Graph access token; the same credential is also in module 3 `mapper\.headers\[0\]\.value`, module 4 `mapper\.headers\[0\]\.value` \(3 places\)/,
    );
    assert.equal(v.summary, '1 hard-coded credential found in the blueprint');
    assert.deepEqual(
      findingsOf(b, 'SEC-1')[0]!.locations!.map((l) => l.moduleId),
      ['2', '3', '4'],
    );
    // The result carries every place too (`evidence.locations`), the reported one first.
    assert.deepEqual(v.failing_modules[0]!.evidence?.locations, [
      { module_id: '2', pointer: '/flow/1/mapper/headers/0/value' },
      { module_id: '3', pointer: '/flow/2/mapper/headers/0/value' },
      { module_id: '4', pointer: '/flow/3/mapper/headers/0/value' },
    ]);
    const steps = r.evaluation.remediation['SEC-1']!.steps.join('\n');
    for (const id of ['2', '3', '4']) assert.match(steps, new RegExp(`\\(module ${id}, `));
  });
  it('two different secrets stay two findings, also in one module', () => {
    const b = bp([
      hook,
      http(2, {
        url: 'https://api.example.org/v1/send',
        headers: [
          { name: 'x-api-key', value: fakeToken(403, 40) },
          { name: 'x-api-secret', value: fakeToken(404, 40) },
        ],
      }),
    ]);
    assert.equal(violationOf(b, 'SEC-1')!.failing_modules.length, 2);
  });
  it('a key found only in an orphan module (metadata.designer.orphans) is found, at its exact pointer', () => {
    const key = `sk-proj-${fakeToken(405, 48)}`;
    const orphan = http(9, {
      url: 'https://api.openai.com/v1/chat/completions',
      headers: [{ name: 'Authorization', value: `Bearer ${key}` }],
    });
    const b = bp(
      [hook, m(2, 'util:SetVariable2', { mapper: { name: 'x', value: '{{1.text}}' } })],
      {},
      {
        designer: { orphans: [[orphan]] },
      },
    );
    assert.deepEqual(placesOf(b, 'SEC-1'), ['/metadata/designer/orphans/0/0/mapper/headers/0/value']);
    assert.equal(violationOf(b, 'SEC-1')!.failing_modules[0]!.severity, 'high');
  });
});

describe('SEC-2 does not repeat SEC-1 on the same literal', () => {
  it('a literal credential in the URL query is one SEC-1 finding that says it travels in the URL; SEC-2 passes', () => {
    const secret = fakeToken(406, 40);
    const b = bp([
      hook,
      http(2, { url: `https://acme-default-rtdb.firebaseio.com/users.json?auth=${secret}` }),
      http(3, { url: 'https://api.example.org/v1/items', qs: [{ name: 'api_key', value: fakeToken(407, 32) }] }),
    ]);
    passes(b, 'SEC-2');
    const v = violationOf(b, 'SEC-1')!;
    assert.deepEqual(
      v.failing_modules.map((f) => `${f.module_id}:${f.severity}`),
      ['2:critical', '3:high'],
    );
    assert.match(v.failing_modules[0]!.reason, /sent in a URL query string/);
  });
  it('a credential mapped at run time into the query is still SEC-2 (warn)', () => {
    const b = bp([hook, http(2, { url: 'https://api.example.org/v1/items?api_key={{1.key}}' })]);
    assert.equal(violationOf(b, 'SEC-2')!.status, 'warn');
    passes(b, 'SEC-1');
  });
});
