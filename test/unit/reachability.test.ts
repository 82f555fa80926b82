/**
 * Static reachability (issue 14): a module on a disabled route, or behind a filter comparing
 * design-time constants that can never pass, cannot run as exported; every policy's finding on it is
 * capped at low with the reason, except a policy whose subject is the exported file (SEC-1).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m, type Mod } from '../helpers/blueprints.js';
import { violationOf } from '../helpers/policy-assert.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { unreachableModules } from '../../src/engine/reachability.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 2268115, maxResults: 1 } });
const setPath = (value: unknown) => m(2, 'util:SetVariable2', { mapper: { name: 'path', scope: 'roundtrip', value } });
/** A GET of the URL the caller sends (SEC-6 high when it can run). */
const fetch = (id: number, filter?: Record<string, unknown>) =>
  m(id, 'http:ActionSendData', {
    version: 3,
    mapper: { url: '{{1.link}}', method: 'get' },
    onerror: breakHandler(id + 100),
    ...(filter ? { filter } : {}),
  });
const check = (o: string, b: string, a = '{{2.path}}') => ({ name: 'path check', conditions: [[{ a, b, o }]] });
const router = (routes: { flow: Mod[]; disabled?: boolean }[]) =>
  m(3, 'builtin:BasicRouter', { parameters: null, mapper: null, routes });

/** Unreachable module ids in document order (a module before its error handler), with why. */
function dead(blueprint: unknown): [string, string][] {
  const parsed = parseBlueprint(blueprint);
  assert.ok(parsed.ok);
  return [...unreachableModules(parsed.graph)];
}
const ids = (blueprint: unknown): string[] => dead(blueprint).map(([id]) => id);

describe('unreachableModules', () => {
  it('finds the routes whose filter compares a set-variable constant with a value it never has, and everything after them', () => {
    const blueprint = bp([
      hook,
      setPath('3'),
      router([
        { flow: [fetch(4, check('number:equal', '1')), m(5, 'json:ParseJSON')] },
        { flow: [fetch(6, check('text:equal', '2'))] },
        { flow: [fetch(7, check('text:equal', '3'))] },
      ]),
    ]);
    assert.deepEqual(ids(blueprint), ['4', '104', '5', '6', '106']);
    assert.match(
      dead(blueprint)[0]![1],
      /filter "path check" can never pass \(\{\{2\.path\}\} \(set to the constant "3" by module 2\) never equals "1"\)/,
    );
  });

  it('finds the modules of a disabled route, nested routers included', () => {
    const inner = m(8, 'builtin:BasicRouter', { routes: [{ flow: [fetch(9)] }] });
    const blueprint = bp([hook, router([{ flow: [fetch(4)] }, { flow: [fetch(6), inner], disabled: true }])]);
    assert.deepEqual(ids(blueprint), ['6', '106', '8', '9', '109']);
    assert.ok(dead(blueprint).every(([, why]) => why === 'route 2 of router 3 is disabled'));
  });

  it('judges exists, not-equal and case-insensitive text on constants', () => {
    const blueprint = bp([
      hook,
      setPath(''),
      router([
        { flow: [fetch(4, check('exist', ''))] },
        { flow: [fetch(5, check('notexist', ''))] },
        { flow: [fetch(6, check('text:notequal', ''))] },
        { flow: [fetch(7, check('text:equal:ci', 'YES', 'yes'))] },
      ]),
    ]);
    assert.deepEqual(
      ids(blueprint).filter((id) => Number(id) < 100),
      ['4', '6'],
    );
  });

  it('takes as able to pass: a mapped value, a variable set off the path, another operator, one OR group that may pass', () => {
    const mapped = bp([hook, setPath('{{1.path}}'), router([{ flow: [fetch(4, check('number:equal', '1'))] }])]);
    const offPath = bp([hook, router([{ flow: [setPath('3')] }, { flow: [fetch(4, check('number:equal', '1'))] }])]);
    const contains = bp([hook, setPath('3'), router([{ flow: [fetch(4, check('text:contain', '1'))] }])]);
    const orGroup = bp([
      hook,
      setPath('3'),
      router([
        {
          flow: [
            fetch(4, {
              name: 'either',
              conditions: [[{ a: '{{2.path}}', b: '1', o: 'text:equal' }], [{ a: '{{1.x}}', b: '1', o: 'text:equal' }]],
            }),
          ],
        },
      ]),
    ]);
    for (const blueprint of [mapped, offPath, contains, orGroup]) assert.deepEqual(ids(blueprint), []);
  });

  it('reads util:SetVariables and stops at a name set twice', () => {
    const many = (variables: unknown[]) => m(2, 'util:SetVariables', { mapper: { scope: 'roundtrip', variables } });
    const once = bp([
      hook,
      many([{ name: 'path', value: '3' }]),
      router([{ flow: [fetch(4, check('text:equal', '1'))] }]),
    ]);
    const twice = bp([
      hook,
      many([
        { name: 'path', value: '3' },
        { name: 'path', value: '1' },
      ]),
      router([{ flow: [fetch(4, check('text:equal', '1'))] }]),
    ]);
    assert.deepEqual(ids(once), ['4', '104']);
    assert.deepEqual(ids(twice), []);
  });
});

describe('findings on modules that cannot run are capped at low', () => {
  it('caps a SEC-6 finding on a dead route at low and says why; the live route keeps medium (a credential-less GET)', () => {
    const blueprint = bp([
      hook,
      setPath('3'),
      router([{ flow: [fetch(4, check('number:equal', '1'))] }, { flow: [fetch(6, check('text:equal', '3'))] }]),
    ]);
    const findings = violationOf(blueprint, 'SEC-6')!.failing_modules.map((f) => [
      f.module_id,
      f.severity,
      f.reason.replace(/^.*; on a route/, 'on a route'),
    ]);
    assert.deepEqual(findings, [
      [
        '4',
        'low',
        'on a route that cannot run as exported: filter "path check" can never pass ({{2.path}} (set to the constant "3" by module 2) never equals "1")',
      ],
      ['6', 'medium', findings[1]![2]],
    ]);
    assert.doesNotMatch(String(findings[1]![2]), /cannot run/);
  });

  it('keeps the severity of a hard-coded credential on a disabled route (the secret is in the exported file)', () => {
    const keyed = m(4, 'http:ActionSendData', {
      version: 3,
      mapper: {
        url: 'https://api.example.org/v1/items',
        method: 'get',
        headers: [{ name: 'Authorization', value: 'Bearer sk-proj-9fQ2xLm4Zt7Wb1Kc8Vn3Rp6Ys0Hd5Ju2' }],
      },
      onerror: breakHandler(104),
    });
    const blueprint = bp([hook, router([{ flow: [keyed], disabled: true }])]);
    const sec1 = violationOf(blueprint, 'SEC-1')!.failing_modules.find((f) => f.module_id === '4')!;
    assert.notEqual(sec1.severity, 'low');
    assert.doesNotMatch(sec1.reason, /cannot run/);
  });
});
