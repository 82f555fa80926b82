/** @module test/helpers/raw-http: HTTP/1.1 over a bare TCP socket, for framing tests (pipelining, HEAD, lingering close). */
import { connect } from 'node:net';
import { signRequest } from '../../src/client/client.js';

/** One parsed response. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What came back on one connection. */
export interface RawExchange {
  readonly responses: readonly RawResponse[];
  /** The server closed the connection before `waitMs` ran out. */
  readonly closed: boolean;
  /** Bytes that did not form a complete response. */
  readonly rest: string;
}

/**
 * Parses consecutive HTTP/1.1 responses (Content-Length or chunked bodies; none for `headOnly`
 * responses, as for HEAD requests). Stops at the first incomplete one.
 */
export function parseResponses(
  data: Buffer,
  headOnly: readonly boolean[] = [],
): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0]!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let bodyStart = end + 4;
    let body: Buffer = Buffer.alloc(0);
    if (headOnly[responses.length] === true) {
      // no content
    } else if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      let p = bodyStart;
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', p);
        if (lineEnd < 0) break;
        const size = parseInt(data.subarray(p, lineEnd).toString('latin1'), 16);
        if (data.length < lineEnd + 2 + size + 2) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
        if (size === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) break;
      body = Buffer.concat(parts);
      bodyStart = p;
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < bodyStart + length) break;
      body = data.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    at = bodyStart;
  }
  return { responses, rest: data.subarray(at) };
}

/**
 * A response body as the JSON `T` it is declared to be (e.g. `Ok<ScenarioResults>`, `Failure`):
 * parsed, not validated, as `GovernanceClient.call<T>` does.
 */
export function jsonOf<T>(body: string): T {
  return JSON.parse(body) as T;
}

/**
 * Opens one connection to 127.0.0.1:`port`, writes `writes` in turn (`gapMs` apart; each may be a
 * function run at that moment), and collects what comes back until the server closes or `waitMs`.
 */
export function exchange(
  port: number,
  writes: readonly (string | Buffer)[],
  options: { gapMs?: number; waitMs?: number; headOnly?: readonly boolean[] } = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const { responses, rest } = parseResponses(Buffer.concat(chunks), options.headOnly);
      resolve({ responses, closed, rest: rest.toString('latin1') });
    };
    const timer = setTimeout(finish, options.waitMs ?? 1000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('connect', () => {
      writes.forEach((w, i) => {
        if (i === 0 || !options.gapMs) socket.write(w);
        else
          setTimeout(() => {
            if (!socket.destroyed) socket.write(w);
          }, i * options.gapMs);
      });
    });
  });
}

/** The bytes of one signed request (path relative to `/api/public/v1`). */
export function signedRequest(
  creds: { apiKey: string; signingSecret: string },
  method: string,
  path: string,
  body = '',
  extraHeaders: Record<string, string> = {},
): string {
  const fullPath = `/api/public/v1${path}`;
  const t = Math.floor(Date.now() / 1000);
  const lines = [
    `${method} ${fullPath} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${creds.apiKey}`,
    `X-Service-Signature: ${signRequest(creds.signingSecret, t, method, fullPath, body)}`,
    ...(body !== '' || method === 'POST'
      ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]
      : []),
    ...Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
