/**
 * @module bench/lib/profile-components: where a V8 CPU profile's time goes, by component of the
 * service (issue 20, item 1: parse, auth and key lookup, signature, rate limits, store, pool
 * hand-off, engine, rendering, metrics, logging). Pure: reads `.cpuprofile` data, returns times.
 *
 * A sample is charged to the innermost frame of its stack that belongs to a component, so time
 * spent in a built-in (a Buffer copy, a regular expression, `JSON.stringify`) counts for the part
 * of the service that called it. Samples with no such frame (V8's `(program)`, start-up) are
 * "other"; `(idle)` samples are not counted.
 */

/** A node of a V8 CPU profile (the fields used here). */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/** A `.cpuprofile` file (the fields used here; times in µs of the monotonic clock). */
export interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The components of the table, in the order it lists them. */
export const COMPONENTS = [
  'parse and validation',
  'routing and pipeline',
  'auth and key lookup',
  'signature and replay',
  'rate limits',
  'idempotency',
  'store',
  'pool hand-off',
  'engine',
  'rendering',
  'evaluation lifecycle',
  'response writing',
  'metrics',
  'logging',
  'garbage collection',
  'other',
] as const;

/** One component of COMPONENTS. */
export type Component = (typeof COMPONENTS)[number];

/** Packages by component (outside our own `dist/src`). */
const PACKAGES: Readonly<Record<string, Component>> = {
  ajv: 'parse and validation',
  'fast-uri': 'parse and validation',
  lmdb: 'store',
  'ordered-binary': 'store',
  msgpackr: 'store',
  ioredis: 'store',
  'redis-parser': 'store',
  denque: 'store',
  'cluster-key-slot': 'store',
  'standard-as-callback': 'store',
  'redis-errors': 'store',
  bullmq: 'store',
  piscina: 'pool hand-off',
  'prom-client': 'metrics',
  tdigest: 'metrics',
  pino: 'logging',
  'sonic-boom': 'logging',
  'thread-stream': 'logging',
  'fast-redact': 'logging',
  'quick-format-unescaped': 'logging',
  'atomic-sleep': 'logging',
};

/** Our own files (paths under `dist/src/`, without extension) by component; the longest matching prefix wins. */
const FILES: readonly (readonly [string, Component])[] = [
  ['server/uws/request', 'parse and validation'],
  ['api/requests', 'parse and validation'],
  ['api/json-depth', 'parse and validation'],
  ['api/views/', 'rendering'],
  ['server/routes/body', 'parse and validation'],
  ['server/pipeline/client-address', 'parse and validation'],
  ['server/pipeline/authenticate', 'auth and key lookup'],
  ['server/pipeline/ip-allowlist', 'auth and key lookup'],
  ['server/pipeline/permission', 'auth and key lookup'],
  ['server/auth/keys', 'auth and key lookup'],
  ['server/auth/key-usage', 'auth and key lookup'],
  ['store/organizations', 'auth and key lookup'],
  ['server/pipeline/signature', 'signature and replay'],
  ['server/pipeline/replay-guard', 'signature and replay'],
  ['server/auth/hmac-sha256', 'signature and replay'],
  ['store/replay', 'signature and replay'],
  ['server/pipeline/rate-limit', 'rate limits'],
  ['store/rate-limits', 'rate limits'],
  ['server/pipeline/idempotency', 'idempotency'],
  ['store/idempotency', 'idempotency'],
  ['store/', 'store'],
  ['actors/pool', 'pool hand-off'],
  ['actors/lanes', 'pool hand-off'],
  ['actors/task-failure', 'pool hand-off'],
  ['actors/worker-protocol', 'pool hand-off'],
  ['actors/evaluation-worker', 'pool hand-off'],
  ['actors/worker-governance', 'pool hand-off'],
  ['engine/', 'engine'],
  ['render/', 'rendering'],
  ['actors/outcome', 'rendering'],
  ['server/routes/', 'rendering'],
  ['actors/', 'evaluation lifecycle'],
  ['server/uws/', 'response writing'],
  ['server/http/', 'response writing'],
  ['server/metrics', 'metrics'],
  ['server/compose/observers', 'metrics'],
  ['server/compose/gauges', 'metrics'],
  ['server/compose/access-', 'logging'],
  ['server/log-destination', 'logging'],
  ['server/', 'routing and pipeline'],
];

/** Built-ins with no file that are a component of their own wherever they are called from. */
const NATIVES: Readonly<Record<string, Component>> = {
  '(garbage collector)': 'garbage collection',
  // JSON.parse: request bodies on the main thread, blueprints in the workers.
  parse: 'parse and validation',
};

/** The component a frame belongs to by itself, or undefined when it takes its caller's. */
export function frameComponent(functionName: string, url: string): Component | undefined {
  if (url === '') return NATIVES[functionName];
  const lib = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (lib) return PACKAGES[lib[1]!];
  const src = /dist\/src\/(.*?)(\.js)?$/.exec(url);
  if (!src) return undefined;
  const file = src[1]!;
  let best: readonly [string, Component] | undefined;
  for (const entry of FILES)
    if (file.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}

/** Time by component in µs (and the busy total) of the samples of `profile` taken within [fromUs, toUs] of the monotonic clock. */
export interface ComponentTimes {
  readonly busyUs: number;
  readonly byComponent: ReadonlyMap<Component, number>;
}

/**
 * Charges each non-idle sample of `profile` taken within [fromUs, toUs] (µs, the clock of the
 * profile's `startTime`: CLOCK_MONOTONIC, as `process.hrtime`) to its component.
 */
export function componentTimes(profile: Profile, fromUs = -Infinity, toUs = Infinity): ComponentTimes {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Component>();
  const componentOf = (id: number): Component => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    // Walk up to the innermost frame with a component of its own (iteratively: stacks can be deep).
    const path: number[] = [];
    let at: number | undefined = id;
    let found: Component = 'other';
    while (at !== undefined) {
      const cached = memo.get(at);
      if (cached !== undefined) {
        found = cached;
        break;
      }
      path.push(at);
      const f = byId.get(at)?.callFrame;
      const own = f ? frameComponent(f.functionName, f.url) : undefined;
      if (own !== undefined) {
        found = own;
        break;
      }
      at = parent.get(at);
    }
    for (const p of path) memo.set(p, found);
    return found;
  };
  const byComponent = new Map<Component, number>();
  let busyUs = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < fromUs || t > toUs) return;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)') return;
    busyUs += dt;
    const c = componentOf(id);
    byComponent.set(c, (byComponent.get(c) ?? 0) + dt);
  });
  return { busyUs, byComponent };
}

/** Sums component times (the workers' profiles together). */
export function addTimes(all: readonly ComponentTimes[]): ComponentTimes {
  const byComponent = new Map<Component, number>();
  let busyUs = 0;
  for (const a of all) {
    busyUs += a.busyUs;
    for (const [c, us] of a.byComponent) byComponent.set(c, (byComponent.get(c) ?? 0) + us);
  }
  return { busyUs, byComponent };
}

/**
 * µs per unit by component: each component's share of the sampled busy time times the thread's
 * measured CPU per unit (from /proc), so the column adds up to what the thread really used.
 */
export function perUnit(times: ComponentTimes, cpuUsPerUnit: number): Map<Component, number> {
  const out = new Map<Component, number>();
  for (const c of COMPONENTS) {
    const us = times.byComponent.get(c) ?? 0;
    out.set(c, times.busyUs > 0 ? (us / times.busyUs) * cpuUsPerUnit : 0);
  }
  return out;
}
