/** @module engine/memo: bounded memoisation for pure functions of a string called on hot paths. */

/**
 * Wraps `compute` (pure) with a cache of at most `limit` entries; when full, the cache is emptied
 * and refilled (the keys these callers see — module types, field paths, peer addresses — repeat
 * heavily, so a simple reset beats LRU bookkeeping).
 */
export function boundedMemo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as V;
    const value = compute(key);
    if (cache.size >= limit) cache.clear();
    cache.set(key, value);
    return value;
  };
}
