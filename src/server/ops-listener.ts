/**
 * @module server/ops-listener: the operators' listener (`METRICS_HOST`:`METRICS_PORT`, loopback by
 * default), separate from the public API: `GET /metrics` (Prometheus text format), `GET /healthz`
 * (liveness) and `GET /readyz` (store open, pool alive, not shutting down).
 */
import type { TemplatedApp, HttpResponse } from 'uWebSockets.js';
import type { Metrics } from './metrics.js';
import type { loadNativeUws } from './uws/adapter.js';
import { listen } from './uws/adapter.js';

/** Readiness checks, each returning a problem or null (or a promise of it: a remote store is asked over the network). */
export type ReadinessCheck = () => string | null | Promise<string | null>;

/** How long a readiness check may take before it counts as failed, in ms (a store that hangs is not ready). */
export const READINESS_TIMEOUT_MS = 1000;

/** Runs `check`: its problem, the error it threw or rejected with, or a timeout. */
async function runCheck(check: ReadinessCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${READINESS_TIMEOUT_MS} ms`), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), timeout]);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the listener; resolves its port and a close function. */
export async function startOpsListener(
  uws: ReturnType<typeof loadNativeUws>,
  host: string,
  port: number,
  metrics: Metrics | null,
  checks: Record<string, ReadinessCheck>,
): Promise<{ port: number; close(): void }> {
  const app: TemplatedApp = uws.App();
  const send = (res: HttpResponse, status: string, type: string, body: string): void => {
    res.cork(() => {
      res.writeStatus(status);
      res.writeHeader('content-type', type);
      res.end(body);
    });
  };
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    if (!metrics) {
      send(res, '404 Not Found', 'text/plain', 'metrics are disabled (METRICS_ENABLED=false)\n');
      return;
    }
    metrics.render().then(
      (text) => {
        if (!aborted) send(res, '200 OK', metrics.registry.contentType, text);
      },
      (err: unknown) => {
        if (!aborted) send(res, '500 Internal Server Error', 'text/plain', `${String(err)}\n`);
      },
    );
  });
  app.get('/healthz', (res) => send(res, '200 OK', 'application/json', '{"status":"ok"}'));
  app.get('/readyz', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const names = Object.keys(checks);
    Promise.all(names.map((name) => runCheck(checks[name]!)))
      .then((problems) => {
        if (aborted) return;
        const ready = problems.every((p) => p === null);
        send(
          res,
          ready ? '200 OK' : '503 Service Unavailable',
          'application/json',
          JSON.stringify({
            status: ready ? 'ready' : 'not_ready',
            checks: Object.fromEntries(names.map((k, i) => [k, problems[i] ?? 'ok'])),
          }),
        );
      })
      .catch(() => undefined); // runCheck never rejects; a send to a connection closed meanwhile throws, and nobody is left to answer
  });
  app.any('/*', (res) => send(res, '404 Not Found', 'text/plain', 'not found\n'));
  const bound = await listen(uws, app, host, port);
  return { port: bound.port, close: () => uws.us_listen_socket_close(bound.socket) };
}
