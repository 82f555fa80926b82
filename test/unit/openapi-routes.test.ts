/**
 * The public route table and the OpenAPI document come from the same declarations: every route the
 * server mounts (publicRoutes, as server.ts builds its Router) is a declared endpoint and an operation
 * of the document with its permission and path limits, and every operation is a mounted route. The
 * console's session-authenticated /api/v1 routes are not public API: left out of the document by design.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { WebhookDispatcher } from '../../src/actors/webhooks/dispatcher.js';
import type { ConsoleServices } from '../../src/server/console/services.js';
import type { Users } from '../../src/server/console/users.js';
import type { Endpoint } from '../../src/server/endpoint.js';
import type { RouteDeps } from '../../src/server/routes/deps.js';
import { consoleRoutes } from '../../src/server/console/routes.js';
import { consoleReadRoutes } from '../../src/server/console/read-routes.js';
import { CONSOLE_ACCOUNT_ENDPOINTS, CONSOLE_READ_ENDPOINTS } from '../../src/server/console/read-endpoints.js';
import { API_ERRORS } from '../../src/server/errors.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { API_PREFIX, CONSOLE_PREFIX, Router, maxLengthOf, type Route } from '../../src/server/router.js';
import { PUBLIC_ENDPOINTS } from '../../src/server/routes/endpoints.js';
import { publicRoutes } from '../../src/server/routes/public-routes.js';
import { ALL_PERMISSIONS } from '../../src/model/records.js';

interface Operation {
  readonly operationId: string;
  readonly 'x-permission'?: string;
  readonly security?: unknown[];
  readonly parameters?: { name: string; in: string; required?: boolean; schema: { maxLength?: number } }[];
  readonly responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
}

/** A dependency that building routes must not touch: only handlers use it, and none runs here. */
function untouchable<T>(name: string): T {
  return new Proxy(
    {},
    {
      get(_target, key) {
        throw new Error(
          `building the routes read ${name}.${String(key)}: only handlers may use it (give this test a stand-in if a factory must)`,
        );
      },
    },
  ) as T;
}

const mounted = publicRoutes(untouchable<RouteDeps>('deps'), untouchable<WebhookDispatcher>('webhooks'));
const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>> };
/** The public API's operations (the console's, under CONSOLE_PREFIX with tag `console`, are checked apart). */
const operations = new Map<string, Operation>(
  Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
    ),
);
const keyOf = (r: Pick<Route, 'method' | 'template'>): string => `${r.method} ${API_PREFIX}${r.template}`;
const declared = new Map(PUBLIC_ENDPOINTS.map((e) => [keyOf(e), e]));
const sorted = (keys: Iterable<string>) => [...keys].sort();

describe('public routes ↔ OpenAPI document', () => {
  it('mounts exactly the declared endpoints, each route built from its declaration', () => {
    assert.equal(declared.size, PUBLIC_ENDPOINTS.length, 'an endpoint is declared twice');
    assert.deepEqual(sorted(mounted.map(keyOf)), sorted(declared.keys()));
    for (const route of mounted) {
      const e = declared.get(keyOf(route))!;
      assert.equal(route.permission, e.permission, keyOf(route));
      assert.equal(route.params, e.params, `${keyOf(route)}: params not taken from the declaration`);
      assert.equal(
        (route as Route & Partial<Endpoint>).openapi,
        e.openapi,
        `${keyOf(route)}: not built as { ...DECLARATION, handle }`,
      );
    }
    assert.doesNotThrow(() => new Router(mounted));
  });

  it('has an operation for every mounted route, with its permission, and a mounted route for every operation', () => {
    assert.deepEqual(sorted(operations.keys()), sorted(mounted.map(keyOf)));
    for (const route of mounted) {
      const op = operations.get(keyOf(route))!;
      assert.equal(op['x-permission'] ?? null, route.permission, keyOf(route));
      if (route.permission === null)
        assert.deepEqual(op.security, [], `${keyOf(route)}: unauthenticated, so security: []`);
      else {
        assert.equal(op.security, undefined, `${keyOf(route)}: authenticated by the document-wide security`);
        assert.ok(ALL_PERMISSIONS.includes(route.permission), keyOf(route));
      }
    }
  });

  it('documents each path parameter with the length limit the router enforces', () => {
    const router = new Router(mounted);
    for (const route of mounted.filter((r) => operations.has(keyOf(r)))) {
      // the test above reports the others
      const names = [...route.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const params = (operations.get(keyOf(route))!.parameters ?? []).filter((p) => p.in === 'path');
      assert.deepEqual(
        params.map((p) => p.name),
        names,
        keyOf(route),
      );
      for (const p of params) {
        const limit = maxLengthOf(route.params![p.name]!);
        assert.equal(p.schema.maxLength, limit ?? undefined, `${keyOf(route)} {${p.name}}`);
        // The router itself: the longest documented id is served, one more character is the route's 404.
        const path = (len: number) =>
          API_PREFIX +
          route.template.replace(/\{([^}]+)\}/g, (_m, n: string) => (n === p.name ? 'x'.repeat(len) : 'a'));
        assert.equal(
          router.match(route.method, path(limit ?? 10_000)).kind,
          'found',
          `${keyOf(route)} {${p.name}} at its limit`,
        );
        if (limit !== null)
          assert.equal(
            router.match(route.method, path(limit + 1)).kind,
            'invalid',
            `${keyOf(route)} {${p.name}} past its limit`,
          );
      }
    }
  });

  it('declares the optional Idempotency-Key header and the Idempotent-Replayed response header on every authenticated POST, and on no other operation', () => {
    for (const route of mounted.filter((r) => operations.has(keyOf(r)))) {
      const op = operations.get(keyOf(route))!;
      const header = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      const success = Object.entries(op.responses).find(([status]) => Number(status) < 300)![1];
      const replayed = success.headers?.['Idempotent-Replayed'] !== undefined;
      const expected = route.method === 'POST' && route.permission !== null;
      assert.equal(header !== undefined, expected, `${keyOf(route)}: Idempotency-Key parameter`);
      assert.equal(replayed, expected, `${keyOf(route)}: Idempotent-Replayed header`);
      if (header) assert.equal(header.required, false, keyOf(route));
    }
  });

  it('gives every operation a unique operationId', () => {
    const ids = [...operations.values()].map((op) => op.operationId);
    assert.deepEqual(sorted(new Set(ids)), sorted(ids));
  });

  it('names in each error response only strings of the error table with that status', () => {
    const rows = Object.values(API_ERRORS);
    const isRow = (status: number, s: string) => rows.some((r) => r.status === status && r.error === s);
    for (const [key, op] of operations) {
      for (const [status, { description }] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // Backticked phrases: error strings (a `: <ids>` suffix and `<permission>` stand for their values), headers, fields.
        const phrases = [...description.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/: <ids>$/, ''));
        const values = (p: string) =>
          p.includes('<permission>') ? ALL_PERMISSIONS.map((perm) => p.replace('<permission>', perm)) : [p];
        assert.ok(
          phrases.some((p) => values(p).every((v) => isRow(Number(status), v))),
          `${key} ${status}: "${description}" names no ${status} row of the error table`,
        );
        // A phrase that reads like an error string (a capital, then words) must be one.
        for (const p of phrases.filter((p) => /^[A-Z]\S* /.test(p))) {
          for (const v of values(p))
            assert.ok(isRow(Number(status), v), `${key} ${status}: \`${v}\` is not a ${status} row of the error table`);
        }
      }
    }
  });

  it('describes exactly the console read, audit and user routes under /api/v1 with the tag console, and leaves the key and session routes out', () => {
    const reads = consoleReadRoutes(
      untouchable<Users>('users'),
      'gov',
      { now: () => 0 } as RouteDeps,
      untouchable<WebhookDispatcher>('webhooks'),
      () => null,
    );
    // The guards of the console routes take the key prefix and the CSRF check when they are built.
    const standIn = new Proxy({} as ConsoleServices, {
      get: (_target, key) =>
        key === 'keys'
          ? { prefix: 'gov' }
          : key === 'csrf'
            ? { check: () => null }
            : untouchable<unknown>(`console.${String(key)}`),
    });
    const console = consoleRoutes(standIn, reads);
    assert.ok(console.length > reads.length);
    const documented = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith(`${API_PREFIX}/`))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
      );
    for (const [key, op] of documented) {
      assert.ok(key.split(' ')[1]!.startsWith(`${CONSOLE_PREFIX}/`), key);
      assert.deepEqual((op as unknown as { tags: string[] }).tags, ['console'], key);
    }
    const accounts = CONSOLE_ACCOUNT_ENDPOINTS.map((e) => `${e.method} ${CONSOLE_PREFIX}${e.template}`);
    assert.deepEqual(
      sorted(documented.map(([key]) => key)),
      sorted([...reads.map((r) => `${r.method} ${CONSOLE_PREFIX}${r.template}`), ...accounts]),
    );
    const mounted = new Set(console.map((r) => `${r.method} ${CONSOLE_PREFIX}${r.template}`));
    for (const key of accounts) assert.ok(mounted.has(key), `${key} is documented and mounted`);
    assert.deepEqual(
      sorted(CONSOLE_READ_ENDPOINTS.map((e) => `${e.method} ${e.template}`)),
      sorted(reads.map((r) => `${r.method} ${r.template}`)),
    );
    // The spec's session and key-admin routes stay out of the document (spec §4 describes them).
    for (const route of console.slice(0, console.length - reads.length))
      if (!accounts.includes(`${route.method} ${CONSOLE_PREFIX}${route.template}`))
        assert.ok(!(`${CONSOLE_PREFIX}${route.template}` in doc.paths), route.template);
    assert.doesNotThrow(() => new Router(console, CONSOLE_PREFIX));
  });
});
