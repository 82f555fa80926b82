/**
 * @module test/helpers/fuzz-requests: fast-check arbitraries of hostile requests against every route
 * (issue 13, item 9): mutated, truncated, deeply nested, huge, `__proto__`-laden, invalid UTF-8 and
 * wrong-type bodies for the POST routes, and random path segments for the GET routes. Shared by the
 * fuzz test and the fuzz soak benchmark.
 */
import fc from 'fast-check';

/** Everything a fuzz case needs to know about the server it targets. */
export interface FuzzTargets {
  /** A stored scenario id of the organization. */
  readonly scenarioId: string;
  /** A webhook id of the organization. */
  readonly webhookId: string;
  /** A result token issued to the organization (valid or not: both are interesting). */
  readonly resultToken: string;
}

/** One request: method, path (relative to `/api/public/v1`, already percent-encoded) and raw body bytes. */
export interface FuzzRequest {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'HEAD';
  readonly path: string;
  readonly body: Buffer;
}

/** Keys that reach object prototypes when code copies bodies carelessly. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** A JSON value with hostile keys mixed in. */
const hostileJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
    fc.array(tie('value'), { maxLength: 5 }),
  ),
})).value;

/** Wrong-type or hostile values for the fields routes actually read. */
const fieldValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.array(fc.string({ maxLength: 140 }), { maxLength: 12 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  hostileJson,
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}')),
);

/** A body shaped like a route's own request, with fields dropped, swapped for wrong types, or added. */
function shapedBody(route: string, t: FuzzTargets): fc.Arbitrary<string> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {
    '/evaluate': fc.record(
      {
        scenario_ids: fc.oneof(fc.constant([t.scenarioId]), fieldValue),
        blueprints: fc.oneof(fc.array(hostileJson, { maxLength: 3 }), fieldValue),
        org_id: fieldValue,
      },
      { requiredKeys: [] },
    ),
    '/evaluate/inline': fc.record(
      {
        blueprint: fc.oneof(
          hostileJson,
          fc.record(
            {
              name: fieldValue,
              flow: fc.oneof(fc.array(hostileJson, { maxLength: 4 }), fieldValue),
              metadata: fieldValue,
            },
            { requiredKeys: [] },
          ),
        ),
        include_remediation: fieldValue,
        save_to_workspace: fc.constant(false),
        scenario_id: fieldValue,
      },
      { requiredKeys: [] },
    ),
    '/results/fetch': fc.record(
      { result_token: fc.oneof(fc.constant(t.resultToken), fieldValue, fc.string({ maxLength: 400 })) },
      { requiredKeys: [] },
    ),
    '/webhooks': fc.record(
      {
        url: fc.oneof(
          fieldValue,
          fc.webUrl(),
          fc.constantFrom('http://127.0.0.1:9/x', 'https://[::ffff:127.0.0.1]/x', 'javascript:alert(1)'),
        ),
        events: fieldValue,
        description: fieldValue,
      },
      { requiredKeys: [] },
    ),
  };
  const arb = fields[route] ?? hostileJson;
  return fc
    .tuple(arb, fc.dictionary(fc.constantFrom(...PROTO_KEYS, 'extra'), hostileJson, { maxKeys: 2 }))
    .map(([v, extra]) => {
      const text = JSON.stringify(v) ?? 'null';
      // Hostile keys as literal JSON text (JSON.stringify drops a real __proto__ key).
      const added = Object.entries(extra)
        .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`)
        .join(',');
      return added && text.startsWith('{') && text !== '{}'
        ? `{${added},${text.slice(1)}`
        : added && text === '{}'
          ? `{${added}}`
          : text;
    });
}

/** Text nested `depth` levels deep (arrays, objects or both). */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('[', '{"a":', '[{"a":'))
  .map(([depth, open]) => {
    const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
    return `${open.repeat(depth)}1${close.repeat(depth)}`;
  });

/** Deep text where each route reads it: inside a blueprint's module (past the shape checks), or as a field. */
function deepIn(route: string, deepText: string): string {
  const blueprint = `{"name":"deep","flow":[{"id":1,"module":"util:SetVariable2","version":1,"mapper":{"value":${deepText}}}]}`;
  if (route === '/evaluate') return `{"blueprints":[${blueprint}]}`;
  if (route === '/evaluate/inline') return `{"blueprint":${blueprint}}`;
  return `{"result_token":"x","url":"http://127.0.0.1:9/x","extra":${deepText}}`;
}

/** Mutates a text: truncation, a byte flipped, a slice duplicated or removed. */
function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc.tuple(base, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 3 })).map(([text, a, b, how]) => {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length === 0) return bytes;
    const i = a % bytes.length;
    const j = b % bytes.length;
    if (how === 0) return bytes.subarray(0, i);
    if (how === 1) {
      const out = Buffer.from(bytes);
      out[i] = (out[i]! + 1 + (b % 255)) & 0xff;
      return out;
    }
    if (how === 2) return Buffer.concat([bytes.subarray(0, Math.max(i, j)), bytes.subarray(Math.min(i, j))]);
    return Buffer.concat([bytes.subarray(0, Math.min(i, j)), bytes.subarray(Math.max(i, j))]);
  });
}

/** A body for `route`: shaped, mutated, deep, huge, invalid UTF-8, empty or not JSON at all. */
export function fuzzBody(route: string, t: FuzzTargets, maxHugeBytes = 1_500_000): fc.Arbitrary<Buffer> {
  const shaped = shapedBody(route, t);
  return fc.oneof(
    { arbitrary: shaped.map((s) => Buffer.from(s, 'utf8')), weight: 6 },
    { arbitrary: mutated(shaped), weight: 4 },
    { arbitrary: deep.map((s) => Buffer.from(deepIn(route, s))), weight: 1 },
    {
      arbitrary: fc
        .integer({ min: 10_000, max: maxHugeBytes })
        .map((n) =>
          Buffer.from(
            route === '/evaluate/inline'
              ? `{"blueprint":{"name":"${'x'.repeat(n)}","flow":[]}}`
              : `{"blueprints":[${'{"flow":[]},'.repeat(Math.floor(n / 12))}{}]}`,
          ),
        ),
      weight: 1,
    },
    {
      arbitrary: fc
        .uint8Array({ maxLength: 600 })
        .map((b) => Buffer.concat([Buffer.from('{"blueprint":"'), Buffer.from(b), Buffer.from('"}')])),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(
        Buffer.alloc(0),
        Buffer.from('null'),
        Buffer.from('[]'),
        Buffer.from('"str"'),
        Buffer.from('1e400'),
        Buffer.from('{"a":1}{"b":2}'),
      ),
      weight: 1,
    },
  );
}

/** A path segment: ids of every length, percent-encodings valid and not, unicode, dot segments. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.integer({ min: 100, max: 4000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom(
    '..',
    '.',
    '%',
    '%zz',
    '%00',
    '%2F',
    '%2e%2e',
    '%C0%AF',
    '%FF%FE',
    'a%3Ab%3ASEC-1',
    's:SEC-1',
    ':SEC-1',
    'x:',
    '%E2%80%AE',
  ),
  fc
    .uint8Array({ minLength: 1, maxLength: 30 })
    .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
);

/** A GET (or HEAD, or DELETE) with random segments in every templated route, or a random path. */
export function fuzzPath(t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const empty = Buffer.alloc(0);
  return fc.oneof(
    pathSegment.map((s) => ({ method: 'GET' as const, path: `/evaluations/${s}`, body: empty })),
    pathSegment.map((s) => ({ method: 'GET' as const, path: `/scenarios/${s}/results`, body: empty })),
    fc
      .tuple(pathSegment, fc.constantFrom('SEC-1', 'DI-3', 'XX-0', ''))
      .map(([s, code]) => ({ method: 'GET' as const, path: `/violations/${s}:${code}/remediation`, body: empty })),
    pathSegment.map((s) => ({ method: 'GET' as const, path: `/violations/${s}/remediation`, body: empty })),
    pathSegment.map((s) => ({ method: 'GET' as const, path: `/webhooks/${s}`, body: empty })),
    pathSegment.map((s) => ({ method: 'HEAD' as const, path: `/webhooks/${s}/deliveries`, body: empty })),
    pathSegment.map((s) => ({ method: 'GET' as const, path: `/scenarios/${t.scenarioId}/${s}`, body: empty })),
    fc
      .array(pathSegment, { minLength: 1, maxLength: 5 })
      .map((parts) => ({ method: 'GET' as const, path: `/${parts.join('/')}`, body: empty })),
    pathSegment.map((s) => ({ method: 'DELETE' as const, path: `/webhooks/${s}`, body: empty })),
    fc
      .tuple(pathSegment, pathSegment)
      .map(([a, b]) => ({ method: 'POST' as const, path: `/webhooks/${a}/deliveries/${b}/redeliver`, body: empty })),
    fc.constant({ method: 'GET' as const, path: `/webhooks/${t.webhookId}/deliveries`, body: empty }),
  );
}

/** A POST with a fuzzed body to one of the JSON routes. */
export function fuzzPost(t: FuzzTargets, maxHugeBytes?: number): fc.Arbitrary<FuzzRequest> {
  return fc
    .constantFrom(
      '/evaluate',
      '/evaluate/inline',
      '/results/fetch',
      '/webhooks',
      `/webhooks/${t.webhookId}/deliveries/d_1/redeliver`,
    )
    .chain((route) => fuzzBody(route, t, maxHugeBytes).map((body) => ({ method: 'POST' as const, path: route, body })));
}
