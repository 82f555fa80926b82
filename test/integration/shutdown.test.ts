/**
 * Graceful shutdown under load with kept-alive clients (issue 13, item 14): after SIGTERM no new
 * work is accepted (503 + Retry-After + Connection: close, or a refused connection), the process
 * exits 0 within SHUTDOWN_DEADLINE_MS, and every evaluation it acknowledged is in the store and
 * completes after the next start.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importScenario } from '../../src/actors/scenarios.js';
import { GovernanceClient, pollEvaluation, signRequest } from '../../src/client/client.js';
import type { EvaluationStatus, Reply } from '../../src/client/responses.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { startService, type ServiceProcess } from '../helpers/process.js';
import { bp, m } from '../helpers/blueprints.js';
import { dataOf } from './bodies.js';

const DEADLINE_MS = 4000;
const IDS = Array.from({ length: 10 }, (_, i) => `s${i}`);

/** A blueprint that takes a few milliseconds to evaluate, so work is in flight when the signal comes. */
function blueprint(seed: number): string {
  const flow = [m(1, 'gateway:CustomWebHook')];
  for (let i = 2; i <= 120; i++)
    flow.push(
      m(i, 'http:ActionSendData', {
        mapper: { url: `https://example.com/${seed}/{{${i - 1}.id}}`, data: '{{1.email}}' },
      }),
    );
  return JSON.stringify(bp(flow));
}

/**
 * An evaluate request on a raw kept-alive connection, sent up to its last body byte; `finish` sends
 * that byte and resolves with everything the server answers until it closes the connection.
 */
function halfSentEvaluate(port: number): Promise<{ finish: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ scenario_ids: IDS.slice(0, 1) });
    const path = '/api/public/v1/evaluate';
    const head =
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\nauthorization: Bearer ${probeCreds.apiKey}\r\n` +
      `x-service-signature: ${signRequest(probeCreds.secret, Math.floor(Date.now() / 1000), 'POST', path, body)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write(head + body.slice(0, -1));
      let raw = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        raw += c;
      });
      const ended = new Promise<string>((done) => {
        socket.on('close', () => done(raw));
      });
      resolve({
        finish: () => {
          socket.write(body.slice(-1));
          return ended;
        },
      });
    });
    socket.on('error', reject);
  });
}
/** The probe's credentials (set in `before`). */
const probeCreds = { apiKey: '', secret: '' };

interface Sent {
  readonly at: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly connection?: string;
  readonly retryAfter?: string;
  readonly evaluationId?: string;
  readonly apiError?: string;
}

describe('graceful shutdown under load', () => {
  let dataDir: string;
  let apiKey: string;
  let secret: string;
  let svc: ServiceProcess | null = null;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gov-shutdown-'));
    const store = openStore(dataDir);
    const keys = new KeyService(store.organizations, loadServerSecrets(dataDir), 'gov');
    const org = await keys.createOrg('Shutdown');
    const k = await keys.createKey(org.org_id, { perMinute: 100_000, perHour: 1_000_000 });
    for (const [i, id] of IDS.entries()) await importScenario(store.scenarios, org.org_id, id, blueprint(i));
    await store.close();
    apiKey = k.api_key;
    secret = k.signing_secret;
    probeCreds.apiKey = apiKey;
    probeCreds.secret = secret;
  });
  after(async () => {
    if (svc) await svc.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops taking work at SIGTERM, answers kept-alive clients 503 with Retry-After and Connection: close, exits 0 in time, and loses nothing it acknowledged', async (t) => {
    svc = await startService({ DATA_DIR: dataDir, POOL_THREADS: '1', SHUTDOWN_DEADLINE_MS: String(DEADLINE_MS) });
    const port = svc.port;
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const sent: Sent[] = [];
    let stopClients = false;
    let n = 0;
    const submit = (): Promise<Sent> =>
      new Promise((resolve) => {
        const body = JSON.stringify({ scenario_ids: IDS, n: n++ });
        const path = '/api/public/v1/evaluate';
        const at = performance.now();
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path,
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${apiKey}`,
              'x-service-signature': signRequest(secret, Math.floor(Date.now() / 1000), 'POST', path, body),
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            },
          },
          (res) => {
            let raw = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              raw += c;
            });
            res.on('end', () => {
              const parsed = JSON.parse(raw) as { data?: { evaluation_id?: string }; error?: string };
              resolve({
                at,
                status: res.statusCode ?? null,
                error: null,
                connection: res.headers['connection'],
                retryAfter: res.headers['retry-after'],
                evaluationId: parsed.data?.evaluation_id,
                apiError: parsed.error,
              });
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => resolve({ at, status: null, error: err.code ?? err.message }));
        req.end(body);
      });
    const loops = Array.from({ length: 8 }, async () => {
      while (!stopClients) {
        const r = await submit();
        sent.push(r);
        if (r.error === 'ECONNREFUSED') await new Promise((res) => setTimeout(res, 20));
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const accepted = sent.filter((s) => s.status === 200).length;
    assert.ok(accepted > 5, `the clients were being served before the signal (${accepted} accepted)`);
    // A kept-alive client whose request is under way at the signal (its body still arriving) is
    // answered 503 once the request is complete: opened and half sent before the signal, finished after it.
    const probe = await halfSentEvaluate(port);
    const signalAt = performance.now();
    const stopping = svc.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const probeAnswer = await probe.finish();
    const stopped = await stopping;
    svc = null;
    stopClients = true;
    await Promise.all(loops);
    agent.destroy();

    assert.equal(stopped.code, 0, 'graceful exit code');
    assert.ok(stopped.ms <= DEADLINE_MS + 500, `exited ${stopped.ms} ms after SIGTERM (deadline ${DEADLINE_MS} ms)`);
    // Requests sent once the signal has surely arrived get no 200: only 503s or refused connections.
    const late = sent.filter((s) => s.at > signalAt + 150);
    assert.ok(late.length > 0, 'the clients kept sending after the signal');
    assert.deepEqual(
      late.filter((s) => s.status === 200),
      [],
      'no work accepted after SIGTERM',
    );
    assert.match(probeAnswer, /^HTTP\/1\.1 503 /, 'a request completed after the signal is refused');
    assert.match(probeAnswer, /\r\nconnection: close\r\n/i);
    assert.match(probeAnswer, /\r\nretry-after: 2\r\n/i);
    assert.match(probeAnswer, /Service is shutting down/);
    // The load's own requests may also have been caught mid-flight (timing decides how many).
    const refused = sent.filter((s) => s.apiError === 'Service is shutting down');
    for (const r of refused) {
      assert.equal(r.status, 503);
      assert.equal(r.connection, 'close');
      assert.equal(r.retryAfter, '2');
    }
    // Besides acceptance and the shutdown refusal, only backpressure (a full queue) may be answered.
    const other = sent.filter(
      (s) =>
        s.status !== null &&
        s.status !== 200 &&
        s.apiError !== 'Service is shutting down' &&
        s.apiError !== 'Evaluation capacity exhausted',
    );
    assert.deepEqual(
      other.map((s) => `${s.status} ${s.apiError}`),
      [],
      'no other answer',
    );

    t.diagnostic(
      `accepted ${sent.filter((s) => s.status === 200).length}, refused while shutting down ${refused.length}, after the signal ${late.length} (${late.filter((s) => s.error !== null).length} connection errors), exit after ${stopped.ms} ms`,
    );
    // Every acknowledged evaluation is in the store, and all of them complete after the next start.
    const acknowledged = sent.filter((s) => s.status === 200).map((s) => s.evaluationId!);
    svc = await startService({ DATA_DIR: dataDir, POOL_THREADS: '2' });
    const c = new GovernanceClient(svc.baseUrl, { apiKey, signingSecret: secret });
    for (const id of acknowledged) {
      const done = await pollEvaluation<Reply<EvaluationStatus>>(c, id, { delaysMs: [100], timeoutMs: 60_000 });
      assert.equal(done.status, 200, `acknowledged evaluation ${id} is known after the restart`);
      assert.equal(dataOf(done).status, 'complete', id);
    }
    await svc.stop('SIGTERM');
    svc = null;
  });
});

describe('a SIGTERM right at the start', () => {
  it('drains and exits 0 when SIGTERM comes the moment the listening line appears (five starts)', async () => {
    // The handlers were installed after that line was written: a supervisor's quick SIGTERM ended about
    // half of such starts by the signal's default action, with nothing drained.
    for (let i = 0; i < 5; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'gov-sigterm-'));
      try {
        const started = await startService({ DATA_DIR: dataDir, POOL_THREADS: '1' });
        const exit = await started.stop('SIGTERM');
        assert.deepEqual([exit.code, exit.signal], [0, null], `start ${i + 1}: ${started.output}`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
