/**
 * Stored JSON in the worker (issue 20, item 4): the depth read from the parsed value agrees with the
 * byte scan of request bodies, and a stored blueprint nested deeper than MAX_JSON_DEPTH (written
 * before the guard existed, or by hand) fails its scenario alone instead of reaching the engine.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, nestsDeeperThan, valueNestsDeeperThan } from '../../src/api/json-depth.js';
import { parseStoredJson } from '../../src/api/requests.js';
import handle from '../../src/actors/evaluation-worker.js';
import { DEFAULT_GOVERNANCE, type ScenarioTaskResult } from '../../src/actors/worker-protocol.js';
import { exampleBlueprints } from '../../src/fleet/variants.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** `levels` nested arrays / objects around a module's mapper value, as a stored blueprint. */
function deepBlueprint(levels: number, open: string, close: string): string {
  const value = `${open.repeat(levels - 4)}1${close.repeat(levels - 4)}`;
  return `{"name":"deep","flow":[{"id":1,"module":"util:SetVariable2","version":1,"mapper":{"value":${value}}}]}`;
}

function scenario(blueprint: string): ScenarioTaskResult {
  return handle({
    kind: 'scenario',
    scenarioId: 's1',
    blueprint: bytes(blueprint),
    evaluationId: 'e1',
    evaluatedAt: '2026-01-01T00:00:00.000Z',
    governance: DEFAULT_GOVERNANCE,
  }) as ScenarioTaskResult;
}

describe('valueNestsDeeperThan', () => {
  it('agrees with the byte scan at the limit, below and beyond it, for arrays, objects and both', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
      ['[{"a":', '}]'],
      ['{"__proto__":', '}'],
    ] as const) {
      for (const levels of [1, 2, 10, 170, 256, 511, 512, 513, 514, 2000]) {
        const text = `${open.repeat(levels)}"x"${close.repeat(levels)}`;
        const value: unknown = JSON.parse(text);
        for (const max of [1, 8, MAX_JSON_DEPTH]) {
          assert.equal(valueNestsDeeperThan(value, max), nestsDeeperThan(bytes(text), max), `${open} ${levels} ${max}`);
        }
      }
    }
    for (const bp of exampleBlueprints()) {
      const text = JSON.stringify(bp);
      for (const max of [2, 4, 6, 8, MAX_JSON_DEPTH])
        assert.equal(valueNestsDeeperThan(bp, max), nestsDeeperThan(bytes(text), max), `${String(bp['name'])} ${max}`);
    }
    assert.equal(valueNestsDeeperThan(7, 0), false, 'a scalar nests nothing');
  });
});

describe('parseStoredJson', () => {
  it('parses what parses, and refuses malformed or too-deep text with a field error at /', () => {
    assert.deepEqual(parseStoredJson(bytes('{"a":[1,{"b":null}]}')), { ok: true, value: { a: [1, { b: null }] } });
    const malformed = parseStoredJson(bytes('{"a":'));
    assert.equal(malformed.ok, false);
    const deep = parseStoredJson(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    assert.deepEqual(deep, {
      ok: false,
      detail: [{ path: '/', message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  });
});

describe('the worker on a stored blueprint', () => {
  it('fails a scenario nested deeper than the limit alone, whatever its depth, and evaluates one at the limit', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ] as const) {
      for (const levels of [MAX_JSON_DEPTH + 1, 100_000]) {
        assert.deepEqual(
          scenario(deepBlueprint(levels, open, close)),
          { ok: false, code: 'blueprint_invalid', message: 'stored blueprint is not valid JSON', name: 's1' },
          `${open} ${levels}`,
        );
      }
      const atLimit = scenario(deepBlueprint(MAX_JSON_DEPTH, open, close));
      assert.equal(atLimit.ok, true, `${open} at the limit is evaluated`);
    }
  });
});
