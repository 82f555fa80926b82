/** @module test/helpers/receiver: a real HTTP webhook receiver on loopback that scripts its answers and records every request. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EvaluationCompleteEvent } from '../../src/client/responses.js';

/** One received request. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** The body of a received `evaluation.complete` request, as declared (parsed, not validated). */
export function eventOf(r: Received): EvaluationCompleteEvent {
  return JSON.parse(r.body) as EvaluationCompleteEvent;
}

/** A receiver; `script` gives the status (and headers) for the n-th request (then 200). */
export async function startReceiver(
  script: (n: number) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 }),
): Promise<{
  url: string;
  received: Received[];
  close(): Promise<void>;
  waitFor(n: number, timeoutMs?: number): Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = script(received.length);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/gov`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
