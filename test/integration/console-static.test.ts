/**
 * The console SPA's serving (issue 18, src/server/console/static.ts) on the real server: index and
 * hashed assets with their caching, content types and security headers, SPA routing, 404 for a
 * missing asset, a build without inline script or style (the CSP's premise), and a missing build
 * answered 503 without harm to the API.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CONSOLE_CSP, consoleResponse, loadConsoleAssets } from '../../src/server/console/static.js';

/** Asserts the headers every console response carries. */
function assertSecurityHeaders(res: Response): void {
  assert.equal(res.headers.get('content-security-policy'), CONSOLE_CSP);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
}

describe('console static files', () => {
  let t: TestServer;
  let html: string;
  const get = (path: string, init?: RequestInit) => fetch(new URL(path, t.baseUrl), { redirect: 'manual', ...init });

  before(async () => {
    t = await startTestServer();
    const res = await get('/console/');
    html = await res.text();
  });
  after(() => t.close());

  it('the exact CSP of the brief', () => {
    assert.equal(
      CONSOLE_CSP,
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
  });

  it('serves index.html at /console/ with no-cache and the security headers', async () => {
    const res = await get('/console/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assertSecurityHeaders(res);
    assert.match(html, /<html lang="en">/);
  });

  it('the built index.html has no inline script, inline style, style attribute or event handler', () => {
    for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      assert.match(m[1]!, /\bsrc="\/console\/assets\/[^"]+\.js"/, 'every script is external');
      assert.equal(m[2]!.trim(), '', 'and empty');
    }
    assert.doesNotMatch(html, /<style\b/i);
    assert.doesNotMatch(html, /\sstyle=/i);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
  });

  it('serves hashed assets as immutable with their content type; a missing asset is 404', async () => {
    const scripts = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(scripts.some((s) => s.endsWith('.js')) && scripts.some((s) => s.endsWith('.css')), html);
    for (const path of scripts) {
      assert.match(path, /-[\w-]{8}\.(js|css)$/, 'hashed name');
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(
        res.headers.get('content-type'),
        path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      assertSecurityHeaders(res);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    const missing = await get('/console/assets/nothing-12345678.js');
    assert.equal(missing.status, 404);
    assertSecurityHeaders(missing);
  });

  it('answers index.html for unknown sub-paths (SPA routing), HEAD without a body, 301 for /console', async () => {
    for (const path of ['/console/scenarios/4417', '/console/keys', '/console/no/such/page?x=1']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), html);
    }
    const head = await get('/console/', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(Number(head.headers.get('content-length')), Buffer.byteLength(html));
    const bare = await get('/console');
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/console/');
    assertSecurityHeaders(bare);
    const post = await get('/console/', { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('leaves the public API as it was: still refusing browsers', async () => {
    const res = await get('/api/public/v1/governance/policies', { headers: { 'sec-fetch-site': 'same-origin' } });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { error: string }).error, 'Browser access not allowed');
  });
});

describe('console not built', () => {
  it('loadConsoleAssets gives null and every console path answers 503 with the reason', () => {
    const assets = loadConsoleAssets('/nonexistent/console/dist');
    assert.equal(assets, null);
    const out = consoleResponse(assets, 'GET', '/console/keys');
    assert.equal(out.status, 503);
    assert.match(out.body.toString(), /npm run build:console/);
  });

  it('a server without the build answers 503 on /console/ and keeps serving the API', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gov-console-'));
    const t = await startTestServer({ consoleDir: empty });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(new URL('/console/', t.baseUrl));
        assert.equal(res.status, 503);
        assertSecurityHeaders(res);
        assert.match(await res.text(), /not built/);
      }
      assert.equal((await t.client.call('GET', '/governance/policies')).status, 200);
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
