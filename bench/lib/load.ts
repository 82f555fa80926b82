/**
 * @module bench/lib/load: an autocannon run in which every request is correctly signed and unique
 * (a fresh `t`/`v1` per request; GETs get a `n=<counter>` query so no two are identical).
 */
import autocannon from 'autocannon';
import { signRequest } from '../../src/client/client.js';

/** What one load run measured. */
export interface LoadResult {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly total: number;
}

/** Load options. */
export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  /** Path relative to the server root, e.g. `/api/public/v1/evaluations/<id>`. */
  readonly path: string;
  readonly body?: string;
  readonly connections: number;
  readonly durationS: number;
  /** Requests per second across all connections (overall rate); unlimited when absent. */
  readonly rate?: number;
  /** Signing credentials; unsigned requests when absent (reference servers). */
  readonly credentials?: { apiKey: string; signingSecret: string };
}

/** Runs autocannon and returns throughput and latency percentiles. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  let counter = 0;
  const method = o.method ?? 'GET';
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.durationS,
    ...(o.rate ? { overallRate: o.rate } : {}),
    requests: [{
      method,
      setupRequest(req: Record<string, unknown>) {
        counter++;
        // A nonce query parameter makes every request unique (GETs would repeat; equal POST bodies would be replays).
        const path = `${o.path}${o.path.includes('?') ? '&' : '?'}n=${counter}`;
        const body = o.body ?? '';
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (o.credentials) {
          headers['authorization'] = `Bearer ${o.credentials.apiKey}`;
          headers['x-service-signature'] = signRequest(o.credentials.signingSecret, Math.floor(Date.now() / 1000), method, path, body);
        }
        return { ...req, method, path, headers, ...(body ? { body } : {}) };
      },
    }],
  } as never) as unknown as { requests: { average: number }; latency: { p50: number; p90: number; p99: number; max: number }; errors: number; non2xx: number; requests_total?: number; '2xx': number };
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50, p90Ms: result.latency.p90, p99Ms: result.latency.p99, maxMs: result.latency.max,
    errors: result.errors, non2xx: result.non2xx, total: result['2xx'] + result.non2xx,
  };
}
