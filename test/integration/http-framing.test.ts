/**
 * HTTP behaviour ordinary clients rely on (issue 13, items 1-3, 5, 6, 12), on the real server: Node's
 * `fetch` is served, an oversized upload reads its 413, HEAD has no body, pipelined requests are
 * answered in order or refused before anything is processed, an empty inline body is a 422 every
 * time, and the in-flight gauge comes back to zero after clients abort.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { signRequest } from '../../src/client/client.js';
import type { Failure, InlineResult, Ok, Reply, ScenarioResults } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { exchange, jsonOf, parseResponses, signedRequest } from '../helpers/raw-http.js';
import { failureOf } from '../helpers/assertions.js';
import { startService } from '../helpers/process.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bp, m } from '../helpers/blueprints.js';
import { importScenario } from '../../src/actors/scenarios.js';

/** An inline body whose evaluation takes tens of milliseconds (1,000 modules). */
function slowInlineBody(): string {
  const flow = [m(1, 'gateway:CustomWebHook')];
  for (let i = 2; i <= 1000; i++)
    flow.push(
      m(i, 'http:ActionSendData', { mapper: { url: `https://example.com/{{${i - 1}.data}}`, data: `{{1.email}}` } }),
    );
  return JSON.stringify({ blueprint: bp(flow) });
}

describe('HTTP framing and ordinary clients', () => {
  let t: TestServer;
  const api = (path: string) => `/api/public/v1${path}`;
  before(async () => {
    t = await startTestServer({ env: { POOL_THREADS: '2' } });
    await importScenario(t.server.store.scenarios, t.orgId, 's1', JSON.stringify(bp([m(1, 'util:SetVariable2')])));
  });
  after(() => t.close());

  /** Headers of a signed request (`fetch` and node:http tests). */
  const signed = (method: string, path: string, body = ''): Record<string, string> => ({
    authorization: `Bearer ${t.creds.apiKey}`,
    'x-service-signature': signRequest(t.creds.signingSecret, Math.floor(Date.now() / 1000), method, api(path), body),
  });

  it("serves Node's built-in fetch, which sends Sec-Fetch-Mode: cors on every request", async () => {
    const res = await fetch(`${t.baseUrl}${api('/governance/policies')}`, {
      headers: signed('GET', '/governance/policies'),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { ok: boolean }).ok, true);
    const body = JSON.stringify({ scenario_ids: ['s1'] });
    const explicit = await fetch(`${t.baseUrl}${api('/evaluate')}`, {
      method: 'POST',
      body,
      headers: { ...signed('POST', '/evaluate', body), 'content-type': 'application/json', 'sec-fetch-mode': 'cors' },
    });
    assert.equal(explicit.status, 200, await explicit.clone().text());
  });

  it('lets a client that is still writing an oversized body read the 413, every time (lingering close)', async () => {
    // The server runs in its own process here: this client blocks its event loop after writing,
    // as a busy client does, and reads the answer only afterwards. A server that answers and closes
    // at once resets the connection while the body is still arriving, and the reset discards the
    // unread 413 on the client's side (EPIPE, no response).
    const svc = await startService({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gov-linger-')), POOL_THREADS: '1' });
    try {
      for (let i = 0; i < 5; i++) {
        const got = await new Promise<{ status: number | null; error: string | null; body: string }>((resolve) => {
          const socket = connect(svc.port, '127.0.0.1');
          const chunks: Buffer[] = [];
          let error: string | null = null;
          socket.on('data', (c: Buffer) => chunks.push(c));
          socket.on('error', (err: NodeJS.ErrnoException) => {
            error = err.code ?? err.message;
          });
          socket.on('close', () => {
            const first = parseResponses(Buffer.concat(chunks)).responses[0];
            resolve({ status: first?.status ?? null, error, body: first?.body ?? '' });
          });
          socket.on('connect', () => {
            socket.write(
              `POST /api/public/v1/evaluate/inline HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`,
            );
            socket.write(Buffer.alloc(3 * 1024 * 1024, 0x20), () => socket.end());
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
          });
        });
        assert.equal(got.error, null, `attempt ${i}: ${got.error}`);
        assert.equal(got.status, 413, `attempt ${i}`);
        assert.equal(jsonOf<Failure>(got.body).error, 'Request body too large');
      }
    } finally {
      await svc.stop('SIGTERM');
    }
  });

  it("lets Node's http client stream an oversized body without Expect: 100-continue and read the 413", async () => {
    const agent = new Agent({ keepAlive: false });
    // Resolves once both the upload and the response are over: the body must be written without
    // an error (no EPIPE or reset) and the response must be the 413.
    const attempt = () =>
      new Promise<{ status: number | null; body: string; error: string | null }>((resolve) => {
        const req = httpRequest(`${t.baseUrl}${api('/evaluate/inline')}`, {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': String(3 * 1024 * 1024) },
        });
        let status: number | null = null;
        let body = '';
        let error: string | null = null;
        let pending = 2;
        const settle = (): void => {
          if (--pending === 0) resolve({ status, body, error });
        };
        req.on('response', (res) => {
          status = res.statusCode ?? null;
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            body += c;
          });
          res.on('end', settle);
          res.on('error', (err) => {
            error ??= err.message;
            settle();
          });
        });
        // 'close' always comes (after 'finish', or after the client closed the connection the 413
        // asked it to close once the server had read the whole body); an 'error' before it is the failure.
        req.on('error', (err: NodeJS.ErrnoException) => {
          error ??= err.code ?? err.message;
        });
        req.on('close', () => {
          if (status === null) pending = 1;
          settle();
        });
        // Streamed as a client reading a file would: 64 KiB every 2 ms, so the upload is still going
        // when the 413 is written (written all at once, 3 MB fits in loopback's socket buffers).
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          if (req.destroyed) return;
          if (++sent > 48) {
            req.end();
            return;
          }
          if (req.write(chunk)) setTimeout(pump, 2);
          else req.once('drain', () => setTimeout(pump, 2));
        };
        pump();
      });
    for (let i = 0; i < 5; i++) {
      const r = await attempt();
      assert.equal(r.error, null, `attempt ${i}: ${r.error}`);
      assert.equal(r.status, 413);
      assert.equal(jsonOf<Failure>(r.body).error, 'Request body too large');
    }
    agent.destroy();
  });

  it('answers 413 to a chunked upload that passes the limit, and closes a connection that keeps sending beyond the lingering bound', async () => {
    const headers = 'POST /api/public/v1/evaluate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = (n: number) => `${n.toString(16)}\r\n${' '.repeat(n)}\r\n`;
    const big = await exchange(
      t.server.port,
      [headers, chunk(1024 * 1024), chunk(1024 * 1024), chunk(512 * 1024), '0\r\n\r\n'],
      { gapMs: 5, waitMs: 3000 },
    );
    assert.equal(big.responses[0]?.status, 413);
    assert.equal(big.responses[0]?.headers['connection'], 'close');
    // A declared length far beyond the bound: the server discards up to its bound, then closes.
    const closed = await new Promise<{ closedAfterBytes: number }>((resolve) => {
      const socket = connect(t.server.port, '127.0.0.1');
      let written = 0;
      const block = Buffer.alloc(256 * 1024, 0x20);
      socket.on('connect', () => {
        socket.write('POST /api/public/v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n');
        const pump = (): void => {
          while (!socket.destroyed && written < 200 * 1024 * 1024) {
            written += block.length;
            if (!socket.write(block)) {
              socket.once('drain', pump);
              return;
            }
          }
        };
        pump();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ closedAfterBytes: written }));
    });
    assert.ok(
      closed.closedAfterBytes < 200 * 1024 * 1024,
      `the connection was closed after ${closed.closedAfterBytes} bytes, not left open`,
    );
  });

  it('answers HEAD on GET routes with the headers of the GET and no body, keeping the connection usable', async () => {
    const get = await exchange(t.server.port, [signedRequest(t.creds, 'GET', '/governance/policies')]);
    const both = await exchange(
      t.server.port,
      [
        signedRequest(t.creds, 'HEAD', '/governance/policies'),
        signedRequest(t.creds, 'HEAD', '/scenarios/unknown/results'),
        'HEAD /api/public/v1/governance/policies HTTP/1.1\r\nHost: x\r\n\r\n',
        signedRequest(t.creds, 'GET', '/scenarios/s1/results'),
      ],
      { headOnly: [true, true, true, false] },
    );
    assert.equal(both.responses.length, 4, both.rest);
    const [head, notFound, unauthenticated, after] = both.responses;
    assert.equal(head!.status, 200);
    assert.equal(head!.body, '');
    assert.equal(head!.headers['content-length'], String(Buffer.byteLength(get.responses[0]!.body)));
    assert.equal(head!.headers['etag'], get.responses[0]!.headers['etag']);
    assert.equal(notFound!.status, 404);
    assert.equal(unauthenticated!.status, 401);
    assert.equal(after!.status, 200, 'the response after the HEADs parses: they carried no body');
    assert.equal(jsonOf<Ok<ScenarioResults>>(after!.body).data.scenario_id, 's1');
    // Node's client, which failed with a parse error on a HEAD answered with a body.
    const viaNode = await new Promise<number>((resolve, reject) => {
      httpRequest(
        `${t.baseUrl}${api('/evaluate')}`,
        { method: 'HEAD', headers: signed('HEAD', '/evaluate') },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      )
        .on('error', reject)
        .end();
    });
    assert.equal(viaNode, 405);
  });

  it('refuses two POSTs pipelined in one packet before processing either, so a retry never evaluates twice', async () => {
    const before = (await t.server.store.stats()).records['evaluations']!;
    const a = signedRequest(t.creds, 'POST', '/evaluate', JSON.stringify({ scenario_ids: ['s1'], n: 1 }));
    const b = signedRequest(t.creds, 'POST', '/evaluate', JSON.stringify({ scenario_ids: ['s1'], n: 2 }));
    const res = await exchange(t.server.port, [a + b], { waitMs: 1500 });
    await new Promise((r) => setTimeout(r, 200));
    const created = (await t.server.store.stats()).records['evaluations']! - before;
    assert.equal(
      created,
      res.responses.length,
      `every evaluation that was created was answered (created ${created}, answered ${res.responses.length})`,
    );
    assert.ok(res.responses.every((r) => r.status === 200));
  });

  it('answers a request written behind a pending asynchronous one on the same connection, in order', async () => {
    const res = await exchange(
      t.server.port,
      [
        signedRequest(t.creds, 'POST', '/evaluate/inline', slowInlineBody()),
        signedRequest(t.creds, 'GET', '/scenarios/s1/results'),
      ],
      { gapMs: 15, waitMs: 5000 },
    );
    assert.equal(res.responses.length, 2, `${res.closed ? 'closed' : 'open'}; rest: ${res.rest.slice(0, 200)}`);
    assert.equal(res.responses[0]!.status, 200);
    assert.ok(jsonOf<Ok<InlineResult>>(res.responses[0]!.body).data.module_graph, 'the inline answer comes first');
    assert.equal(jsonOf<Ok<ScenarioResults>>(res.responses[1]!.body).data.scenario_id, 's1');
  });

  it('answers an empty-body inline call with 422 every time, and inline evaluation keeps working', async () => {
    // The same empty body each time: signed at distinct seconds from one base (the replay guard
    // refuses a signature it has seen; `now - i` read afresh collided when the clock ticked).
    const base = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 3; i++) {
      const res = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', undefined, {
        t: base - i,
      });
      assert.equal(res.status, 422, res.raw);
      assert.equal(failureOf(res).error, 'Invalid request body');
    }
    const ok = await t.client.call('POST', '/evaluate/inline', { blueprint: bp([m(1, 'util:SetVariable2')]) });
    assert.equal(ok.status, 200, ok.raw);
  });

  it('brings gov_http_requests_in_flight back to 0 after clients abort before, during and after their request was read', async () => {
    const body = slowInlineBody();
    const aborts: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) {
      aborts.push(
        new Promise<void>((resolve) => {
          const socket = connect(t.server.port, '127.0.0.1');
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.on('connect', () => {
            const full = signedRequest(t.creds, 'POST', '/evaluate/inline', `${body}${' '.repeat(i)}`);
            // A third stop mid-body, a third after the whole request (evaluation running), a third mid-headers.
            socket.write(i % 3 === 0 ? full.slice(0, full.length - 1000) : i % 3 === 1 ? full : full.slice(0, 40));
            setTimeout(() => socket.destroy(), 10);
          });
        }),
      );
    }
    await Promise.all(aborts);
    const metric = async () => {
      const text = await (await fetch(`http://127.0.0.1:${t.server.opsPort}/metrics`)).text();
      return Number(/^gov_http_requests_in_flight (\S+)/m.exec(text)?.[1]);
    };
    let value = await metric();
    for (let i = 0; i < 50 && value !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      value = await metric();
    }
    assert.equal(value, 0);
  });
});
