/**
 * @module fleet/variants: deterministic variants of our own example blueprints, for fleet tests and
 * benchmarks (never corpus copies). Variant `i` toggles settings, TLS, credentials, error handlers
 * and labels so that fleets have a realistic mix of violations.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

type Obj = Record<string, unknown>;

/** The example blueprints shipped in `examples/`, parsed once. */
export function exampleBlueprints(): Obj[] {
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.blueprint.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(`${EXAMPLES}${f}`, 'utf8')) as Obj);
}

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/** Walks every module object of a flow (and the routes, error handlers, if/else branches and agent tools nested in it). */
function eachModule(flow: unknown, fn: (m: Obj) => void): void {
  if (!Array.isArray(flow)) return;
  for (const m of flow as Obj[]) {
    fn(m);
    eachModule(m['onerror'], fn);
    for (const key of ['routes', 'branches', 'tools'])
      for (const r of (m[key] as Obj[] | undefined) ?? []) eachModule(r['flow'], fn);
  }
}

/** Variant number `i` of the examples (deterministic). */
export function variant(i: number, examples: readonly Obj[] = exampleBlueprints()): Obj {
  const r = rng(i * 2654435761);
  const bp = structuredClone(examples[i % examples.length]!);
  bp['name'] = `${String(bp['name'])} #${i}`;
  const meta = bp['metadata'] as Obj;
  const scenario = meta['scenario'] as Obj;
  scenario['dlq'] = r() < 0.5;
  scenario['confidential'] = r() < 0.3;
  scenario['sequential'] = r() < 0.5;
  eachModule(bp['flow'], (m) => {
    const mapper = m['mapper'] as Obj | null;
    if (mapper && typeof mapper['url'] === 'string') {
      if (r() < 0.2) mapper['url'] = mapper['url'].replace('https://', 'http://');
      if (r() < 0.1) mapper['rejectUnauthorized'] = false;
    }
    if (r() < 0.15 && m['onerror']) delete m['onerror'];
    if (r() < 0.3) ((m['metadata'] as Obj)['designer'] as Obj)['name'] = `Step ${i}-${String(m['id'])}`;
  });
  return bp;
}
