/** The access log hook (server/compose/access-log): lines built from kept segments are the lines formatAccessLine writes. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import type { KeyRecord } from '../../src/model/records.js';
import type { ApiRequest, RequestContext } from '../../src/server/http/types.js';
import { accessHooks } from '../../src/server/compose/access-log.js';
import { ACCESS_INFO, ACCESS_WARN, accessBindings, formatAccessLine } from '../../src/server/compose/access-line.js';
import { serviceLog } from '../../src/server/log-destination.js';

const key = (id: string): KeyRecord => ({
  key_id: id,
  org_id: 'org "1"',
  name: 'k',
  hash: '',
  display_prefix: '',
  permissions: [],
  allow_ips: [],
  expires_at: null,
  revoked_at: null,
  per_minute: 60,
  per_hour: 1000,
  created_at: '',
  rotated_from: null,
});
const request = (id: string, method = 'GET'): ApiRequest => ({
  method,
  path: '/x',
  query: '',
  headers: {},
  body: Buffer.alloc(0),
  remoteAddress: '',
  requestId: id,
  receivedAt: 1000,
  takeBody: () => new Uint8Array(0),
});
const context = (k: KeyRecord | null, watermark: string | null, template: string | null): RequestContext => ({
  key: k,
  watermark,
  rate: null,
  params: {},
  template,
  clientIp: null,
});

it('writes each request line byte for byte as formatAccessLine, through routes, methods, keys and watermark changes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gov-access-'));
  const fd = openSync(join(dir, 'log'), 'w');
  try {
    const log = serviceLog('info', fd);
    const logger = log.logger;
    const hooks = accessHooks(null, logger, () => 1000.25);
    const k1 = key('key_1');
    const k2 = key('key_2');
    const cases: [ApiRequest, RequestContext, number, string | undefined][] = [
      [request('r1'), context(k1, 'wm_1', '/evaluations/{id}'), 200, undefined],
      [request('r2'), context(k1, 'wm_1', '/evaluations/{id}'), 404, undefined],
      [request('r3', 'POST'), context(k1, 'wm_1', '/evaluations/{id}'), 405, undefined],
      [request('r4'), context(k1, 'wm_2', '/evaluate'), 200, undefined],
      [request('r5'), context(k2, 'wm_2', '/evaluate'), 200, undefined],
      // An admitted key on a path no route matched: its segment is kept per method.
      [request('r5a'), context(k2, 'wm_2', null), 404, undefined],
      [request('r5b', 'POST'), context(k2, 'wm_2', null), 404, undefined],
      [request('r5c'), context(k2, 'wm_2', null), 404, undefined],
      [request('r"6'), context(k2, null, null), 403, 'replay'],
      [request('r7'), context(null, null, null), 401, 'missing_authorization'],
    ];
    for (const [req, ctx, status, reason] of cases)
      hooks.onFinished!(req, ctx, { status, body: '', ...(reason ? { reason: reason as never } : {}) }, false, 3);
    log.flushSync();
    const lines = readFileSync(join(dir, 'log'), 'utf8').split('\n').slice(0, -1);
    assert.equal(lines.length, cases.length);
    const bindings = accessBindings(process.pid, hostname());
    cases.forEach(([req, ctx, status, reason], i) => {
      const got = lines[i]!;
      const time = (JSON.parse(got) as { time: number }).time;
      const expected = formatAccessLine(
        reason ? ACCESS_WARN : ACCESS_INFO,
        time,
        bindings,
        {
          request_id: req.requestId,
          method: req.method,
          route: ctx.template,
          status,
          aborted: false,
          duration_ms: 0.25,
          bytes_in: 3,
          key_id: ctx.key?.key_id ?? null,
          org_id: ctx.key?.org_id ?? null,
          watermark: ctx.watermark,
          ...(reason ? { reason } : {}),
        },
        reason ? 'request refused' : 'request',
      );
      assert.equal(`${got}\n`, expected, `line ${i}`);
    });
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});
