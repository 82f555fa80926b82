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
