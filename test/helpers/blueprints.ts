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
