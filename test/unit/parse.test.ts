/** Blueprint parser: structure, pointers, edges, settings and errors with the JSON Pointer of the first problem. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../src/engine/index.js';
import { classify } from '../../src/engine/blueprint/classify.js';
import { bp, m } from '../helpers/blueprints.js';

describe('parseBlueprint', () => {
  it('walks the top-level flow, router routes and error handlers with pointers, depths and edges', () => {
    const blueprint = bp([
      m(1, 'gateway:CustomWebHook'),
      m(2, 'builtin:BasicRouter', {
        mapper: null,
        routes: [
          {
            flow: [
              m(3, 'google-sheets:addRow', {
                onerror: [m(4, 'builtin:Break')],
                filter: { name: 'Paid', conditions: [[{ a: '{{1.s}}', o: 'exist' }]] },
              }),
            ],
          },
          { flow: [m(5, 'slack:CreateMessage')], disabled: true },
        ],
      }),
    ]);
    const r = parseBlueprint(blueprint);
    assert.ok(r.ok);
    const g = r.graph;
    assert.deepEqual(
      g.modules.map((x) => x.id),
      ['1', '2', '3', '4', '5'],
    );
    assert.equal(g.byId.get('3')!.pointer, '/flow/1/routes/0/flow/0');
    assert.equal(g.byId.get('4')!.pointer, '/flow/1/routes/0/flow/0/onerror/0');
    assert.equal(g.byId.get('4')!.container, 'onerror');
    assert.equal(g.byId.get('3')!.depth, 1);
    assert.deepEqual(
      g.byId.get('2')!.routes.map((r2) => r2.disabled),
      [false, true],
    );
    const sorted = (e: readonly object[]) => e.map((x) => JSON.stringify(x)).sort();
    assert.deepEqual(
      sorted(g.edges),
      sorted([
        { from: '1', to: '2', kind: 'next' },
        { from: '3', to: '4', kind: 'error' },
        { from: '2', to: '3', kind: 'route', routeIndex: 0, filter: 'Paid' },
        { from: '2', to: '5', kind: 'route', routeIndex: 1 },
      ]),
    );
    assert.equal(g.settings.dlq, true);
    assert.equal(g.settings.zone, 'eu1.make.com');
  });

  it('accepts unnumbered placeholder modules and old exports without metadata.instant', () => {
    const r = parseBlueprint({
      name: 'x',
      flow: [m(null, 'placeholder:Placeholder'), m(2, 'util:SetVariable2')],
      metadata: { scenario: { dlq: false } },
    });
    assert.ok(r.ok);
    assert.equal(r.graph.modules[0]!.id, 'unnumbered-1');
    assert.equal(r.graph.settings.instant, null);
  });

  it('accepts every module name Make exports: custom apps, digits, underscores, dots, old Integromat names', () => {
    const names = [
      'app#courageousteams-614494:getOrder',
      'app#errorhandler-dpgcf8:errorhandler',
      'openai-gpt-3:CreateCompletion',
      'notion:searchObjects1',
      '0codekit:ConvertHtmlToPdf',
      'my_app.v2:do_thing',
      'google-sheets:ActionAddRow',
      'open-router:createAChatCompletion',
    ];
    const r = parseBlueprint(bp(names.map((name, i) => m(i + 1, name))));
    assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
    const byName = new Map(r.graph.modules.map((x) => [x.type, x]));
    assert.deepEqual(
      ['app#courageousteams-614494:getOrder', 'app#errorhandler-dpgcf8:errorhandler', 'my_app.v2:do_thing'].map((n) => {
        const x = byName.get(n)!;
        return [x.app, x.action, x.custom];
      }),
      [
        ['courageousteams', 'getOrder', true],
        ['errorhandler', 'errorhandler', true],
        ['my_app.v2', 'do_thing', false],
      ],
    );
    assert.equal(byName.get('app#courageousteams-614494:getOrder')!.name, 'Courageousteams · Get Order');
  });

  it('classifies an unknown or custom app from its action, never refusing it', () => {
    const r = parseBlueprint(bp([m(1, 'app#courageousteams-614494:getOrder'), m(2, 'acme-billing:frobnicate')]));
    assert.ok(r.ok);
    assert.deepEqual(
      r.graph.modules.map((x) => [classify(x).role, classify(x).external]),
      [
        ['read', true],
        ['other', true],
      ],
    );
  });

  const invalid: [string, unknown, string][] = [
    ['a non-object', [], ''],
    ['a missing flow', { name: 'x' }, '/flow'],
    ['a module without a type', { flow: [m(1, 'util:SetVariable2'), { id: 2 }] }, '/flow/1/module'],
    ['a module whose type is not a string', { flow: [{ id: 1, module: 42 }] }, '/flow/0/module'],
    ['a module name without an action', { flow: [m(1, 'util:SetVariable2'), m(2, 'google-sheets')] }, '/flow/1/module'],
    ['a module name with spaces', { flow: [m(1, 'google sheets:add row')] }, '/flow/0/module'],
    ['a bad module id', { flow: [{ id: 'abc', module: 'a:b' }] }, '/flow/0/id'],
    ['a duplicate module id', { flow: [m(1, 'a:b'), m(1, 'a:c')] }, '/flow/1/id'],
    [
      'a route without a flow array',
      { flow: [m(1, 'builtin:BasicRouter', { routes: [{ flow: 3 }] })] },
      '/flow/0/routes/0/flow',
    ],
    ['an onerror that is not an array', { flow: [m(1, 'a:b', { onerror: {} })] }, '/flow/0/onerror'],
  ];
  for (const [what, input, pointer] of invalid) {
    it(`rejects ${what} with pointer "${pointer}"`, () => {
      const r = parseBlueprint(input);
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.error.code, 'blueprint_invalid');
        assert.equal(r.error.issues[0]!.pointer, pointer);
      }
    });
  }

  it('rejects nesting deeper than the limit instead of overflowing the stack', () => {
    let mod: Record<string, unknown> = m(10_000, 'util:SetVariable2');
    for (let i = 0; i < 200; i++) mod = m(i, 'builtin:BasicRouter', { routes: [{ flow: [mod] }] });
    const r = parseBlueprint({ flow: [mod] });
    assert.equal(r.ok, false);
  });
});
