/** The engine is pure (STYLE 1): no server, actors, container, store, metrics or HTTP imports; no clock or randomness. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENGINE = fileURLToPath(new URL('../../../src/engine/', import.meta.url));
const FORBIDDEN_IMPORT =
  /from\s+'(?:\.\.\/)+(?:server|actors|store|cli|client)\/|from\s+'(?:tsyringe|lmdb|msgpackr|prom-client|uWebSockets\.js|piscina|pino|node:fs|node:net|node:http|node:worker_threads)'/;
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
