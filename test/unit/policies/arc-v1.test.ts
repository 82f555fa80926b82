/** ARC-3 .. ARC-9: a passing and a failing blueprint each, with the exact failing module ids. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

/** A route filter with one real condition. */
const gate = (name: string) => ({ name, conditions: [[{ a: '{{1.status}}', b: 'ok', o: 'text:equal' }]] });
const labeled = (id: number, label: string | null) =>
  m(id, 'util:SetVariable2', { metadata: { designer: { x: 0, y: 0, ...(label ? { name: label } : {}) } } });

describe('ARC-3 default module labels', () => {
  it('warns when most modules of a larger scenario are unlabeled', () => {
    const flow = Array.from({ length: 12 }, (_, i) => labeled(i + 1, i < 3 ? `Step ${i}` : null));
    assert.deepEqual(failingIds(bp(flow), 'ARC-3'), ['4', '5', '6', '7', '8', '9', '10', '11', '12']);
  });
  it('passes when most are labeled, and for small scenarios', () => {
    passes(bp(Array.from({ length: 12 }, (_, i) => labeled(i + 1, i < 8 ? `Step ${i}` : null))), 'ARC-3');
    passes(bp([labeled(1, null), labeled(2, null)]), 'ARC-3');
  });
});

describe('ARC-4 deprecated modules', () => {
  it('reports the legacy HTTP Get a file module (v3), not its v4 successor Download a file', () => {
    const b = bp([
      m(1, 'http:ActionGetFile', { version: 3, mapper: { url: 'https://example.org/logo.png' } }),
      m(2, 'http:DownloadFile', { version: 4, mapper: { url: 'https://example.org/logo.png' } }),
    ]);
    assert.deepEqual(
      violationOf(b, 'ARC-4')!.failing_modules.map((f) => [f.module_id, f.severity]),
      [['1', 'low']],
    );
  });
  it('reports legacy HTTP, Sheets v1 and retired OpenAI models with their severities', () => {
    const b = bp([
      m(1, 'http:ActionSendData', { version: 3 }),
      m(2, 'google-sheets:addRow', { version: 1 }),
      m(3, 'openai-gpt-3:CreateCompletion', { mapper: { model: 'text-davinci-003' } }),
    ]);
    assert.deepEqual(failingIds(b, 'ARC-4'), ['1', '2', '3']);
    assert.deepEqual(
      violationOf(b, 'ARC-4')!.failing_modules.map((f) => f.severity),
      ['low', 'medium', 'high'],
    );
  });
  it('passes for current modules', () => {
    passes(
      bp([
        m(1, 'http:MakeRequest', { version: 4 }),
        m(2, 'google-sheets:addRow', { version: 2 }),
        m(3, 'openai-gpt-3:CreateCompletion', { mapper: { model: 'gpt-4o-mini' } }),
      ]),
      'ARC-4',
    );
  });
});

describe('ARC-5 hard-coded environment ids', () => {
  it('warns for Make API URLs with literal ids', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(4, 'http:MakeRequest', {
            version: 4,
            mapper: { url: 'https://eu1.make.com/api/v2/scenarios/123456/run?teamId=42' },
          }),
        ]),
        'ARC-5',
      ),
      ['4'],
    );
  });
  it('passes for variables', () => {
    passes(
      bp([
        m(4, 'http:MakeRequest', {
          version: 4,
          mapper: { url: 'https://eu1.make.com/api/v2/scenarios/{{var.scenario}}/run' },
        }),
      ]),
      'ARC-5',
    );
  });
});

describe('ARC-6 unconfigured module', () => {
  it('fails for a placeholder slot and an unconfigured module', () => {
    assert.deepEqual(
      failingIds(
        bp([m(null, 'placeholder:Placeholder'), m(2, 'email:ActionSendMeEmail', { parameters: null, mapper: null })]),
        'ARC-6',
      ),
      ['unnumbered-1', '2'],
    );
  });
  it('passes for configured modules and routers', () => {
    passes(
      bp([
        m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes: [] }),
        m(2, 'email:ActionSendMeEmail', { mapper: { text: 'x' } }),
      ]),
      'ARC-6',
    );
  });
  it('reports an empty slot that is a whole route low (an unfinished branch), and one inside a running route low (an inert step)', () => {
    const send = m(3, 'email:ActionSendMeEmail', { mapper: { text: 'x' } });
    const router = (routes: unknown[]) =>
      m(1, 'builtin:BasicRouter', {
        parameters: null,
        mapper: null,
        metadata: { designer: { x: 0, y: 0, name: 'APP' } },
        routes,
      });
    const alone = violationOf(
      bp([router([{ flow: [send] }, { flow: [m(null, 'placeholder:Placeholder')] }])]),
      'ARC-6',
    )!.failing_modules;
    assert.deepEqual(
      alone.map((f) => [f.module_id, f.severity, f.reason]),
      [
        [
          'unnumbered-1',
          'low',
          'empty module slot, all of route 2 of router 1 ("APP"): an unfinished branch that does nothing',
        ],
      ],
    );
    const inside = violationOf(
      bp([router([{ flow: [send, m(null, 'placeholder:Placeholder')] }])]),
      'ARC-6',
    )!.failing_modules;
    assert.deepEqual(
      inside.map((f) => [f.module_id, f.severity, f.reason]),
      [['unnumbered-1', 'low', 'empty module slot: an unfinished step that does nothing']],
    );
  });
  it('reports an empty slot where the trigger belongs medium: the scenario has no start', () => {
    const start = violationOf(
      bp([m(null, 'placeholder:Placeholder'), m(3, 'email:ActionSendMeEmail', { mapper: { text: 'x' } })]),
      'ARC-6',
    )!.failing_modules;
    assert.deepEqual(
      start.map((f) => [f.module_id, f.severity, f.reason]),
      [['unnumbered-1', 'medium', 'empty module slot where the trigger belongs: the scenario has no start']],
    );
  });
  it('reports an empty slot on a disabled route low (the route cannot run)', () => {
    const blueprint = bp([
      m(1, 'builtin:BasicRouter', {
        routes: [
          {
            flow: [m(null, 'placeholder:Placeholder'), m(3, 'email:ActionSendMeEmail', { mapper: { text: 'x' } })],
            disabled: true,
          },
        ],
      }),
    ]);
    assert.deepEqual(
      violationOf(blueprint, 'ARC-6')!.failing_modules.map((f) => [f.module_id, f.severity, f.reason]),
      [
        [
          'unnumbered-1',
          'low',
          'empty module slot: an unfinished step that does nothing; on a route that cannot run as exported: route 1 of router 1 is disabled',
        ],
      ],
    );
  });
});

describe('ARC-7 disabled routes', () => {
  it('warns for disabled routes on the router', () => {
    assert.deepEqual(
      failingIds(
        bp([
          m(1, 'builtin:BasicRouter', {
            mapper: null,
            parameters: { else: 0 },
            routes: [{ flow: [m(2, 'util:SetVariable2')] }, { flow: [m(3, 'util:SetVariable2')], disabled: true }],
          }),
        ]),
        'ARC-7',
      ),
      ['1'],
    );
  });
  it('passes when all routes are enabled', () => {
    passes(
      bp([
        m(1, 'builtin:BasicRouter', {
          mapper: null,
          parameters: { else: 0 },
          routes: [{ flow: [m(2, 'util:SetVariable2')] }],
        }),
      ]),
      'ARC-7',
    );
  });
});

describe('ARC-8 filter without conditions', () => {
  it('warns for a named filter with no conditions', () => {
    assert.deepEqual(
      failingIds(
        bp([m(1, 'util:SetVariable2'), m(2, 'util:SetVariable2', { filter: { name: 'Only paid', conditions: [] } })]),
        'ARC-8',
      ),
      ['2'],
    );
  });
  it('warns for a condition-less route whose sibling routes have conditions', () => {
    const routes = [
      { flow: [m(2, 'util:SetVariable2', { filter: gate('Invalid') })] },
      { flow: [m(3, 'util:SetVariable2', { filter: { name: 'valid', conditions: [] } })] },
    ];
    assert.deepEqual(
      failingIds(bp([m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes })]), 'ARC-8'),
      ['3'],
    );
  });
  it('passes for labels: a fallback route, the first module of an error handler, parallel branches with no condition at all', () => {
    const label = (name: string) => ({ name, conditions: [] });
    const fallback = [
      { flow: [m(2, 'util:SetVariable2', { filter: label('Error Path') })] },
      { flow: [m(3, 'util:SetVariable2', { filter: gate('Success Path') })] },
    ];
    passes(bp([m(1, 'builtin:BasicRouter', { parameters: { else: 0 }, mapper: null, routes: fallback })]), 'ARC-8');
    passes(
      bp([
        m(1, 'http:MakeRequest', {
          version: 4,
          mapper: { url: 'https://api.example.org/x' },
          onerror: [m(5, 'slack:CreateMessage', { filter: label('error handling') }), m(6, 'builtin:Ignore')],
        }),
      ]),
      'ARC-8',
    );
    const parallel = [
      { flow: [m(2, 'util:SetVariable2', { filter: label('Customer-Data') })] },
      { flow: [m(3, 'util:SetVariable2', { filter: label('Offer-Data') })] },
    ];
    passes(bp([m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes: parallel })]), 'ARC-8');
  });
  it('passes for an empty filter restating a gate of the same name upstream on the path, not for another name', () => {
    const routes = (name: string) => [
      { flow: [m(2, 'util:SetVariable2', { filter: gate('Invalid') })] },
      {
        flow: [
          m(3, 'util:SetVariable2', { filter: gate('Valid Path') }),
          m(4, 'util:SetVariable2', { filter: { name, conditions: [] } }),
        ],
      },
    ];
    passes(
      bp([m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes: routes('Valid Path') })]),
      'ARC-8',
    );
    assert.deepEqual(
      failingIds(
        bp([m(1, 'builtin:BasicRouter', { parameters: null, mapper: null, routes: routes('Only paid') })]),
        'ARC-8',
      ),
      ['4'],
    );
  });
  it('passes for a real condition', () => {
    passes(
      bp([m(2, 'util:SetVariable2', { filter: { name: 'Only paid', conditions: [[{ a: '{{1.s}}', o: 'exist' }]] } })]),
      'ARC-8',
    );
  });
});

describe('ARC-9 default scenario name', () => {
  it('warns for a generated name', () => {
    assert.equal(
      violationOf({ ...bp([m(1, 'util:SetVariable2')]), name: 'Integration Webhooks, Google Sheets' }, 'ARC-9')?.status,
      'warn',
    );
  });
  it('passes for a meaningful name', () => {
    passes({ ...bp([m(1, 'util:SetVariable2')]), name: 'Orders: intake to fulfilment' }, 'ARC-9');
  });
});
