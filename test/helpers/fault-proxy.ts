/**
 * @module test/helpers/fault-proxy: a TCP proxy in front of the real server that injects faults per HTTP
 * request, to prove the SDK's retry matrix (issue 19): `reset` forwards the request and, when the server's
 * answer arrives, resets the client's connection instead of passing it on (the request ran; its answer is
 * lost); `stall` forwards the request and never answers (a per-attempt timeout must fire);
 * `remediation-500` answers `500 Remediation generation failed` itself without forwarding; `pass` pipes.
 * Faults are queued with `fail(mode, times)` and consumed by the next requests in arrival order.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** What the proxy does with one request. */
export type FaultMode = 'pass' | 'reset' | 'stall' | 'remediation-500';

/** One request seen by the proxy (parsed from its head). */
export interface SeenRequest {
  readonly method: string;
  /** Path with query, as sent. */
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly signature: string | undefined;
  readonly fault: FaultMode;
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`, to give the SDK as its base URL. */
  readonly baseUrl: string;
  /** Every request seen, in arrival order. */
  readonly requests: readonly SeenRequest[];
  /** Queues `mode` for the next `times` requests (after those already queued). */
  fail(mode: FaultMode, times?: number): void;
  /** Drops the faults still queued. */
  clear(): void;
  /** Resolves once `count` requests in all have been seen. */
  seen(count: number): Promise<void>;
  close(): Promise<void>;
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/;
const REMEDIATION_FAILED_BODY = JSON.stringify({
  ok: false,
  error: 'Remediation generation failed',
  detail: 'injected by the test proxy',
  message: 'injected by the test proxy',
});
const REMEDIATION_FAILED = Buffer.from(
  'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json; charset=utf-8\r\n' +
    `x-request-id: proxy-injected\r\ncontent-length: ${Buffer.byteLength(REMEDIATION_FAILED_BODY)}\r\n\r\n` +
    REMEDIATION_FAILED_BODY,
);

/** Starts a proxy on 127.0.0.1 (port from the OS) forwarding to `target` (`http://127.0.0.1:<port>`). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstreamPort = Number(new URL(target).port);
  const queue: FaultMode[] = [];
  const requests: SeenRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();

  const record = (head: string, fault: FaultMode) => {
    const [, method = '', path = ''] = REQUEST_LINE.exec(head) ?? [];
    const headerOf = (name: string) => new RegExp(`\\r\\n${name}: *([^\\r]*)`, 'i').exec(head)?.[1];
    requests.push({
      method,
      path,
      idempotencyKey: headerOf('idempotency-key'),
      signature: headerOf('x-service-signature'),
      fault,
    });
    for (const w of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  const server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    let fault: FaultMode = 'pass';
    client.on('data', (chunk: Buffer) => {
      if (REQUEST_LINE.test(chunk.toString('latin1', 0, Math.min(chunk.length, 2048)))) {
        fault = queue.shift() ?? 'pass';
        record(chunk.toString('latin1'), fault);
        if (fault === 'remediation-500') client.write(REMEDIATION_FAILED);
      }
      if (fault !== 'remediation-500') upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (fault === 'pass') client.write(chunk);
      else if (fault === 'reset') {
        client.resetAndDestroy();
        upstream.destroy();
      }
      // stall: the answer is swallowed; the client gives up by itself.
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    fail(mode, times = 1) {
      for (let i = 0; i < times; i++) queue.push(mode);
    },
    clear() {
      queue.length = 0;
    },
    seen: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
