/** The Redis backend's memory of finished evaluations' views (store/evaluations/terminal-views): which views, how long, how much. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { EvaluationRecord } from '../../src/model/records.js';
import { decodeStoredView, encodeStoredView } from '../../src/store/evaluations/stored-view.js';
import {
  isTerminalView,
  TERMINAL_VIEW_TTL_MS,
  TERMINAL_VIEWS_MAX_BYTES,
  TerminalViews,
} from '../../src/store/evaluations/terminal-views.js';

const record = (status: EvaluationRecord['status'], id = 'ev_1'): EvaluationRecord => ({
  evaluation_id: id,
  org_id: 'org_1',
  kind: 'stored',
  status,
  scenario_ids: ['s1'],
  versions: [1],
  total_scenarios: 1,
  completed: status === 'complete' ? 1 : 0,
  scenarios: [null],
  error: status === 'error' ? 'boom "status":"pending"' : null,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
  completed_at: null,
  expires_at: null,
  key_id: 'key_1',
});
const view = (status: EvaluationRecord['status'], id?: string) =>
  decodeStoredView(encodeStoredView(record(status, id)));

it('tells finished views from open ones, whatever the rest of the view says', () => {
  assert.equal(isTerminalView(view('complete')), true);
  assert.equal(isTerminalView(view('error')), true);
  assert.equal(isTerminalView(view('pending')), false);
  assert.equal(isTerminalView(view('processing')), false);
});

it('remembers finished views only, for TERMINAL_VIEW_TTL_MS, and forgets on request', () => {
  let now = 1_000;
  const views = new TerminalViews(() => now);
  views.offer('ev_open', view('processing', 'ev_open'));
  assert.equal(views.get('ev_open'), undefined);
  const done = view('complete');
  views.offer('ev_1', done);
  assert.equal(views.get('ev_1'), done);
  now += TERMINAL_VIEW_TTL_MS;
  assert.equal(views.get('ev_1'), undefined, 'trusted for the TTL only');
  views.offer('ev_1', done);
  views.forget('ev_1');
  assert.equal(views.get('ev_1'), undefined);
  views.offer('ev_1', done);
  views.forget();
  assert.equal(views.get('ev_1'), undefined);
});

it('drops the oldest views beyond TERMINAL_VIEWS_MAX_BYTES', () => {
  const views = new TerminalViews(() => 0);
  const one = view('complete');
  const fit = Math.floor(TERMINAL_VIEWS_MAX_BYTES / one.json.byteLength);
  for (let i = 0; i <= fit; i++) views.offer(`ev_${i}`, one);
  assert.equal(views.get('ev_0'), undefined, 'the oldest went');
  assert.equal(views.get(`ev_${fit}`), one);
  assert.equal(views.get('ev_1'), one);
});
