/** Rendered status bodies of GET /evaluations/{id} (server/routes/status-bodies): reused only while the stored view is the same bytes. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationView } from '../../src/store/evaluations/repository.js';
import { StatusBodies } from '../../src/server/routes/status-bodies.js';
import { okBytes } from '../../src/server/http/envelope.js';

const view = (json: string, errorJson: string | null = null): EvaluationView => ({
  orgId: 'org_1',
  expiresAt: null,
  errorJson,
  json: Buffer.from(json),
});
/** The body the route answered before the cache: the envelope built on every request. */
const expected = (v: EvaluationView, wm: string) =>
  okBytes(v.json, wm, v.errorJson === null ? '' : `,"error":${v.errorJson}`).body as Buffer;

it('answers the envelope of the view, the same bytes the route built before, reused while the view is unchanged', () => {
  const bodies = new StatusBodies();
  const v = view('{"evaluation_id":"ev_1","status":"pending"}');
  const first = bodies.body('ev_1', v, 'wm_00000001');
  assert.deepEqual(first, expected(v, 'wm_00000001'));
  assert.equal(bodies.body('ev_1', view('{"evaluation_id":"ev_1","status":"pending"}'), 'wm_00000001'), first);
  const other = bodies.body('ev_1', v, 'wm_00000002');
  assert.deepEqual(other, expected(v, 'wm_00000002'));
  assert.equal(bodies.size, 1);
});

it('renders again as soon as the stored view changes (state, batch error), whoever wrote it', () => {
  const bodies = new StatusBodies();
  bodies.body('ev_1', view('{"evaluation_id":"ev_1","status":"pending"}'), 'wm_1');
  const done = view('{"evaluation_id":"ev_1","status":"complete"}');
  assert.deepEqual(bodies.body('ev_1', done, 'wm_1'), expected(done, 'wm_1'));
  const failed = view('{"evaluation_id":"ev_1","status":"complete"}', '"boom"');
  assert.deepEqual(bodies.body('ev_1', failed, 'wm_1'), expected(failed, 'wm_1'));
  assert.match(bodies.body('ev_1', failed, 'wm_1').toString(), /,"error":"boom"}$/);
});

it('keeps its own copy of the view: the store reusing its read buffer changes no remembered body', () => {
  const bodies = new StatusBodies();
  const shared = Buffer.from('{"evaluation_id":"ev_1","status":"pending"}');
  const v: EvaluationView = { orgId: 'org_1', expiresAt: null, errorJson: null, json: shared };
  const body = bodies.body('ev_1', v, 'wm_1');
  shared.write('{"evaluation_id":"ev_2","status":"running"}');
  // The bytes differ now: rendered from the new bytes, and the earlier body was not altered in place.
  assert.match(bodies.body('ev_1', v, 'wm_1').toString(), /ev_2/);
  assert.match(body.toString(), /"ev_1","status":"pending"/);
});

it('stays within its byte bound, dropping the oldest evaluations first', () => {
  const bodies = new StatusBodies(10_000);
  const json = `{"pad":"${'x'.repeat(1000)}"}`;
  for (let i = 0; i < 50; i++) bodies.body(`ev_${i}`, view(json), 'wm_1');
  assert.ok(bodies.size > 0 && bodies.size <= 5, String(bodies.size));
  // The newest is still remembered (same object), the oldest rendered again.
  const newest = bodies.body('ev_49', view(json), 'wm_1');
  assert.equal(bodies.body('ev_49', view(json), 'wm_1'), newest);
});
