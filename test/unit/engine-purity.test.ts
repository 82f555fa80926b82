/**
 * The engine is pure (STYLE 1): no server, actors, container, store, metrics, render or HTTP imports; no clock or
 * randomness. The scenario picture (src/render) builds on the engine and is as pure: it imports the engine, itself and
 * micromark (the Markdown converter of render/markdown: a pure function of its text) only.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENGINE = fileURLToPath(new URL('../../../src/engine/', import.meta.url));
const RENDER = fileURLToPath(new URL('../../../src/render/', import.meta.url));
const FORBIDDEN_IMPORT =
  /from\s+'(?:\.\.\/)+(?:server|actors|store|cli|client|render)\/|from\s+'(?:tsyringe|lmdb|msgpackr|prom-client|uWebSockets\.js|piscina|pino|node:fs|node:net|node:http|node:worker_threads)'/;
const FORBIDDEN_CALL =
  /\bDate\.now\(|\bnew Date\(|\bMath\.random\(|\bperformance\.now\(|\bcrypto\.random|\bprocess\.env\b/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

it('src/engine imports nothing impure and never reads the clock or randomness', () => {
  const all = files(ENGINE);
  assert.ok(all.length > 10);
  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, FORBIDDEN_IMPORT, file);
    assert.doesNotMatch(text, FORBIDDEN_CALL, file);
  }
});

it('src/render imports only the engine, its own files and micromark, and never reads the clock or randomness', () => {
  const all = files(RENDER);
  assert.ok(all.length >= 3);
  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    for (const [, from] of text.matchAll(/from\s+'([^']+)'/g))
      assert.match(from!, /^(?:\.\/|\.\.\/engine\/|micromark$)/, `${file} imports ${from}`);
    assert.doesNotMatch(text, FORBIDDEN_CALL, file);
  }
});
