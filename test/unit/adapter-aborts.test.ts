/** The uWS adapter (server/uws/adapter) with a scripted uWS: when it watches for aborts, and what an abort does. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { mountAdapter, type AdapterHooks, type Dispatch } from '../../src/server/uws/adapter.js';

/** A scripted uWS response: records what the adapter does with it. */
function fakeResponse() {
  const calls: string[] = [];
  let aborted: (() => void) | null = null;
  const res = {
    onAborted(h: () => void) {
      calls.push('onAborted');
      aborted = h;
      return res;
    },
    onData() {
      calls.push('onData');
      return res;
    },
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    cork(f: () => void) {
      f();
      return res;
    },
    writeStatus: (s: unknown) => (calls.push(`status ${String(s)}`), res),
    writeHeader: () => res,
    end: () => (calls.push('end'), res),
    endWithoutBody: () => (calls.push('endWithoutBody'), res),
  };
  return { res: res as unknown as HttpResponse, calls, abort: () => aborted!() };
}

function fakeRequest(method: string, headers: Record<string, string> = {}): HttpRequest {
  return {
    forEach: (cb: (k: string, v: string) => void) => Object.entries(headers).forEach(([k, v]) => cb(k, v)),
    getMethod: () => method.toLowerCase(),
    getUrl: () => '/api/public/v1/evaluations/ev_1',
    getQuery: () => '',
  } as unknown as HttpRequest;
}

function mount(dispatch: Dispatch) {
  let handler: ((res: HttpResponse, req: HttpRequest) => void) | null = null;
  const app = { any: (_p: string, h: typeof handler) => (handler = h) } as unknown as TemplatedApp;
  const finished: boolean[] = [];
  const hooks: AdapterHooks = {
    onFinished: (_req, _ctx, _res, aborted) => finished.push(aborted),
    onError: () => ({ status: 500, body: '{}' }),
  };
  const control = mountAdapter(app, dispatch, { bodyLimitBytes: 1000, now: () => 0 }, hooks);
  return { handle: (res: HttpResponse, req: HttpRequest) => handler!(res, req), finished, control };
}

it('answers a bodiless GET answered at once without watching for aborts (uWS cannot abort inside its callback)', () => {
  const { handle, finished } = mount(() => ({ status: 200, body: '{}' }));
  const r = fakeResponse();
  handle(r.res, fakeRequest('GET'));
  assert.deepEqual(r.calls, ['status 200 OK', 'end']);
  assert.deepEqual(finished, [false]);
});

it('watches for aborts as soon as a GET goes asynchronous: an abort finishes it once and nothing is written after', async () => {
  let answer!: (r: { status: number; body: string }) => void;
  const { handle, finished, control } = mount(() => new Promise((resolve) => (answer = resolve)));
  const r = fakeResponse();
  handle(r.res, fakeRequest('GET'));
  assert.deepEqual(r.calls, ['onAborted', 'pause']);
  assert.equal(control.inFlight, 1);
  r.abort();
  assert.deepEqual(finished, [true]);
  answer({ status: 200, body: '{}' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.calls, ['onAborted', 'pause'], 'nothing written to an aborted response');
  assert.deepEqual(finished, [true]);
  assert.equal(control.inFlight, 0);
});

it('watches for aborts at once for other methods and for requests with a body', () => {
  const { handle } = mount(() => ({ status: 200, body: '{}' }));
  const post = fakeResponse();
  handle(post.res, fakeRequest('POST'));
  assert.equal(post.calls[0], 'onAborted');
  const withBody = fakeResponse();
  handle(withBody.res, fakeRequest('GET', { 'content-length': '5' }));
  assert.deepEqual(withBody.calls, ['onAborted', 'onData']);
});
