/**
 * @module client/client: the tests' raw signed client of the public API, with the built-in `fetch`
 * (design notes "Request signature"; "Browser refusal", revised: undici's `Sec-Fetch-Mode: cors` is
 * served). One attempt per call, no retries, any status returned as data: tests send what no customer
 * client sends (unsigned, mis-signed, raw or replayed requests). Customers, the demo, the benchmarks
 * and examples/ use the SDK, `@gov/sdk` (packages/sdk).
 */
import { signRequest } from '@gov/sdk';

/** Credentials of one API key. */
export interface ClientCredentials {
  readonly apiKey: string;
  readonly signingSecret: string;
}

/** A decoded response. `T` declares the body (see `responses.ts`, e.g. `Reply<SubmitResult>`); undeclared, it is `unknown`. */
export interface ClientResponse<T = unknown> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: T;
  readonly raw: string;
}

/** `X-Service-Signature` value for a request at unix time `t` (seconds): the SDK's, one implementation. */
export { signRequest };

/** Options of one call. */
export interface CallOptions {
  /** Extra or overriding headers; `null` removes a default header (e.g. the signature). */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** Signing time in unix seconds (default: now). */
  readonly t?: number;
  /** Raw body bytes instead of JSON-encoding `body`. */
  readonly rawBody?: string | Buffer;
}

/** Signed client for `baseUrl` (e.g. `http://127.0.0.1:8080`). */
export class GovernanceClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials: ClientCredentials,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Signs and sends one request; the path is relative to `/api/public/v1`. */
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ClientResponse<T>> {
    const fullPath = path.startsWith('/api/') ? path : `/api/public/v1${path}`;
    const payload = options.rawBody ?? (body === undefined ? '' : JSON.stringify(body));
    const t = options.t ?? Math.floor(this.clock() / 1000);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.credentials.apiKey}`,
      'x-service-signature': signRequest(this.credentials.signingSecret, t, method, fullPath, payload),
    };
    if (payload !== '') headers['content-type'] = 'application/json';
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    return send<T>(new URL(fullPath, this.baseUrl), method, headers, payload);
  }
}

/**
 * Sends one request with the global `fetch` (no signing) and decodes a JSON body when there is one.
 * Header names come back lower-case; repeated ones joined with `, `. @throws TypeError on a network error.
 */
export async function send<T = unknown>(
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: string | Buffer,
): Promise<ClientResponse<T>> {
  const res = await fetch(url, {
    method,
    headers,
    ...(payload.length > 0 ? { body: payload } : {}),
    redirect: 'manual',
  });
  const raw = await res.text();
  let parsed: unknown = raw;
  try {
    parsed = raw === '' ? null : JSON.parse(raw);
  } catch {
    /* keep the raw text */
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed as T, raw };
}

/** What `pollEvaluation` reads of a body: the envelope's `data.status` (an error body has no `data`). */
type PolledBody = { readonly ok?: boolean; readonly data?: { readonly status?: string } } | null;

/**
 * Polls `GET /evaluations/{id}` until a terminal status, with the spec's backoff (§8 rule 4: 2, 3, 5, 8 s for
 * batches of 5+). `T` declares the body, e.g. `EvaluationReply` (`responses.ts`); it returns the last response.
 */
export async function pollEvaluation<T extends PolledBody = PolledBody>(
  client: GovernanceClient,
  evaluationId: string,
  options: { delaysMs?: readonly number[]; timeoutMs?: number } = {},
): Promise<ClientResponse<T>> {
  const delays = options.delaysMs ?? [2000, 3000, 5000, 8000];
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (let attempt = 0; ; attempt++) {
    const res = await client.call<T>('GET', `/evaluations/${evaluationId}`);
    const status = res.body?.data?.status;
    if (res.status !== 200 || status === 'complete' || status === 'error') return res;
    if (Date.now() > deadline)
      throw new Error(`evaluation ${evaluationId} not terminal after ${options.timeoutMs ?? 120_000} ms`);
    await new Promise((r) => setTimeout(r, delays[Math.min(attempt, delays.length - 1)]));
  }
}
