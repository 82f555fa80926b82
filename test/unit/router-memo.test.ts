/** The router remembers its matches per method and path (server/router): the same answers, shared and frozen. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { API_PREFIX, Router, type Route } from '../../src/server/router.js';
import { API_ERRORS } from '../../src/server/errors.js';

const handle = () => ({ status: 200, body: '' });
const routes: Route[] = [
  {
    method: 'GET',
    template: '/evaluations/{id}',
    permission: 'governance:evaluate',
    params: { id: { notFound: API_ERRORS.evaluationNotFound } },
    handle,
  },
  { method: 'POST', template: '/evaluate', permission: 'governance:evaluate', handle },
];

it('answers a repeated path from memory with the same, frozen match; per method', () => {
  const router = new Router(routes);
  const first = router.match('GET', `${API_PREFIX}/evaluations/ev%201`);
  assert.equal(first.kind, 'found');
  assert.deepEqual(first.kind === 'found' && first.params, { id: 'ev 1' });
  assert.equal(router.match('GET', `${API_PREFIX}/evaluations/ev%201`), first);
  assert.equal(router.match('HEAD', `${API_PREFIX}/evaluations/ev%201`), first);
  assert.ok(first.kind === 'found' && Object.isFrozen(first.params));
  assert.deepEqual(router.match('POST', `${API_PREFIX}/evaluations/ev%201`), {
    kind: 'method',
    allowed: ['GET', 'HEAD'],
  });
  assert.equal(router.match('GET', `${API_PREFIX}/evaluate`).kind, 'method');
  assert.equal(router.match('POST', `${API_PREFIX}/evaluate`).kind, 'found');
  assert.equal(router.match('GET', `${API_PREFIX}/evaluations/${'x'.repeat(129)}`).kind, 'invalid');
});

it('keeps answering correctly when ever-new paths and methods overflow its memory', () => {
  const router = new Router(routes);
  for (let i = 0; i < 25_000; i++) {
    const m = router.match(i % 7 === 0 ? `M${i % 40}` : 'GET', `${API_PREFIX}/evaluations/ev_${i}`);
    if (i % 7 === 0) assert.equal(m.kind, 'method');
    else assert.deepEqual(m.kind === 'found' && m.params, { id: `ev_${i}` });
  }
});
