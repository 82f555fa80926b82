/** @module api/json-depth: the nesting depth of JSON text, measured without parsing or recursion. */

/**
 * Deepest nesting of arrays and objects accepted in a request body (issue 13, item 7). A blueprint
 * nests four levels per route or error handler (module, `routes`, route, `flow`) and the engine
 * accepts 64 of those (engine `MAX_NESTING`), plus its parameters: 512 leaves room for every real
 * blueprint while keeping recursive consumers (`JSON.stringify`, schema validation, the engine)
 * far from the stack limit, which a 10,000-level body overflowed on the HTTP thread.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when the JSON text in `bytes` nests arrays and objects deeper than `max`. One pass over the
 * bytes, brackets inside strings ignored; O(length), no allocation. Text of `max` bytes or fewer
 * cannot nest deeper and is not scanned.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number = MAX_JSON_DEPTH): boolean {
  if (bytes.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/**
 * True when the parsed JSON `value` nests arrays and objects deeper than `max` (the same depth
 * `nestsDeeperThan` reads from the text: the outermost array or object is level 1). Walks only the
 * arrays and objects, with an explicit stack (no recursion, whatever the depth). Meant to follow
 * `JSON.parse`, which is itself iterative in V8 (a 1,000,000-level text parses without overflow): on
 * a stored blueprint the pair costs ~6% over `JSON.parse` alone, where the byte scan before it cost
 * ~40% (issue 20, item 4; micro-benchmark in docs/benchmarks.md).
 */
export function valueNestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
