/** @module test/helpers/blueprints: builders for our own small blueprints (never corpus copies). */

/** A module object as in a Make export. */
export type Mod = Record<string, unknown>;

/** Builds a module: `m(3, 'http:ActionSendData', { mapper: {...} })`. */
export function m(id: number | null, module: string, extra: Record<string, unknown> = {}): Mod {
  return { id, module, version: 1, parameters: {}, mapper: {}, metadata: { designer: { x: 0, y: 0 } }, ...extra };
}

/** Builds a blueprint with the given top-level flow and scenario settings (good defaults: dlq on). */
export function bp(
  flow: Mod[],
  scenario: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Test scenario',
    flow,
    metadata: {
      instant: false,
      version: 1,
      zone: 'eu1.make.com',
      scenario: {
        roundtrips: 1,
        maxErrors: 3,
        autoCommit: true,
        autoCommitTriggerLast: true,
        sequential: false,
        slots: null,
        confidential: false,
        dataloss: false,
        dlq: true,
        freshVariables: false,
        ...scenario,
      },
      ...metadata,
    },
  };
}

/** A `Break` error-handler route (retry 3 times). */
export function breakHandler(id: number): Mod[] {
  return [m(id, 'builtin:Break', { mapper: { count: '3', retry: true, interval: '1' } })];
}

/** Deterministic pseudo-random string over `alphabet` (for fake secrets that keep a real format). */
export function fakeToken(
  seed: number,
  length: number,
  alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
): string {
  let x = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

/**
 * A large scenario as Make's editor lays it out: a webhook, then routers nested three deep (4 routes,
 * then 4, then 2), each route a filtered flow of three modules with an `Ignore` handler on its
 * Sheets write; every module at its own canvas position on a 300 × 150 grid. 210 modules, beyond the
 * largest real export of the development corpora (195), for the renderer's limits.
 */
export function largeBlueprint(): Record<string, unknown> {
  let id = 0;
  let row = 0;
  const at = (col: number, r: number, module: string, extra: Record<string, unknown> = {}): Mod => {
    const mod = m(++id, module, extra);
    mod['metadata'] = { designer: { x: col * 300, y: r * 150 } };
    return mod;
  };
  const routes = (col: number, fanOut: readonly number[]): Mod[] => {
    const [width, ...deeper] = fanOut;
    return Array.from({ length: width! }, (_, i) => {
      const r = row;
      row += 2;
      const flow = [
        at(col, r, 'util:SetVariable2', {
          filter: { name: `Route ${i + 1}`, conditions: [[{ a: '{{1.kind}}', o: 'text:equal', b: `k${i}` }]] },
          mapper: { name: `v${id}`, scope: 'roundtrip', value: '{{1.value}}' },
        }),
        at(col + 1, r, 'google-sheets:addRow', { mapper: { values: { 0: '{{1.id}}' } } }),
      ];
      flow[1]!['onerror'] = [at(col + 1, r + 1, 'builtin:Ignore')];
      if (deeper.length > 0) flow.push(at(col + 2, r, 'builtin:BasicRouter', { routes: routes(col + 3, deeper) }));
      else flow.push(at(col + 2, r, 'slack:CreateMessage', { mapper: { channel: 'C01', text: '{{1.id}}' } }));
      return { flow };
    });
  };
  const trigger = at(0, 0, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
  const router = at(1, 0, 'builtin:BasicRouter');
  router['routes'] = routes(2, [4, 4, 2]);
  return bp([trigger, router]);
}
