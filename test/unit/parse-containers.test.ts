/**
 * The parser on every container Make exports beyond routes and error handlers (issue 32 §1): if/else
 * branches and their Merge module, AI agent tools and settings, orphans on the canvas, subscenario
 * calls; module ids, containers, pointers, edges, and the errors of malformed shapes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint, type ScenarioGraph } from '../../src/engine/index.js';
import { classify } from '../../src/engine/blueprint/classify.js';
import { flowOf, nestedFlows } from '../../src/engine/blueprint/flows.js';
import { fixtureJson } from '../helpers/fixtures.js';
import { bp, m } from '../helpers/blueprints.js';

function graphOf(blueprint: unknown): ScenarioGraph {
  const r = parseBlueprint(blueprint);
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  return r.graph;
}

/** Each module as `id container parent routeIndex depth pointer`. */
function placesOf(g: ScenarioGraph): string[] {
  return g.modules.map((x) => `${x.id} ${x.container} ${x.parentId} ${x.routeIndex} ${x.depth} ${x.pointer}`);
}

const sorted = (e: readonly object[]) => e.map((x) => JSON.stringify(x)).sort();

/** An if/else (2) with a Gmail send in its condition branch, an empty else branch, a Merge (5) and a last module. */
function ifElse(extra: { merge?: boolean; disabled?: boolean } = {}) {
  return bp([
    m(1, 'gateway:CustomWebHook'),
    m(2, 'builtin:BasicIfElse', {
      mapper: null,
      branches: [
        {
          label: 'Urgent',
          type: 'condition',
          merge: extra.merge ?? true,
          ...(extra.disabled ? { disabled: true } : {}),
          conditions: [[{ a: '{{1.priority}}', o: 'text:equal', b: 'urgent' }]],
          flow: [
            m(3, 'openai-gpt-3:CreateCompletion', { mapper: { messages: [{ role: 'user', content: '{{1.text}}' }] } }),
            m(4, 'google-email:sendAnEmail', { mapper: { to: ['{{1.email}}'], content: '{{3.result}}' } }),
          ],
        },
        { label: '', type: 'else', merge: true, disabled: false, flow: [] },
      ],
    }),
    m(5, 'builtin:BasicMerge', { mapper: null, outputs: [{ name: 'answer', mappings: ['{{3.result}}', ''] }] }),
    m(6, 'slack:CreateMessage', { mapper: { text: '{{5.answer}}' } }),
  ]);
}

describe('parseBlueprint: if/else branches', () => {
  it('walks each branch with real ids and pointers, one level deeper, in document order', () => {
    const g = graphOf(ifElse());
    assert.deepEqual(placesOf(g), [
      '1 flow null null 0 /flow/0',
      '2 flow null null 0 /flow/1',
      '3 branch 2 0 1 /flow/1/branches/0/flow/0',
      '4 branch 2 0 1 /flow/1/branches/0/flow/1',
      '5 flow null null 0 /flow/2',
      '6 flow null null 0 /flow/3',
    ]);
    assert.equal(g.maxDepth, 1);
    assert.deepEqual(g.topLevelIds, ['1', '2', '5', '6']);
  });

  it('keeps each branch: its modules, kind, label, condition (named by its label) and merge; the else branch has no condition', () => {
    const [urgent, other] = graphOf(ifElse()).byId.get('2')!.branches;
    assert.deepEqual(urgent, {
      moduleIds: ['3', '4'],
      kind: 'condition',
      label: 'Urgent',
      condition: { name: 'Urgent', conditions: [[{ a: '{{1.priority}}', o: 'text:equal', b: 'urgent' }]] },
      merge: true,
      disabled: false,
      pointer: '/flow/1/branches/0',
    });
    assert.equal(other!.kind, 'else');
    assert.equal(other!.condition, null);
    assert.deepEqual(other!.moduleIds, []);
  });

  it('links the if/else to each branch and each merging branch to the Merge module, not the if/else to the Merge directly', () => {
    assert.deepEqual(
      sorted(graphOf(ifElse()).edges),
      sorted([
        { from: '1', to: '2', kind: 'next' },
        { from: '2', to: '3', kind: 'branch', routeIndex: 0, filter: 'Urgent' },
        { from: '3', to: '4', kind: 'next' },
        { from: '4', to: '5', kind: 'merge', routeIndex: 0 },
        // The empty else branch passes the bundle straight to the Merge module.
        { from: '2', to: '5', kind: 'merge', routeIndex: 1 },
        { from: '5', to: '6', kind: 'next' },
      ]),
    );
  });

  it('ends a branch that does not merge: no edge from it to the Merge module', () => {
    const edges = graphOf(ifElse({ merge: false })).edges;
    assert.equal(
      edges.some((e) => e.from === '4'),
      false,
    );
    assert.ok(edges.some((e) => e.kind === 'merge' && e.from === '2'));
  });

  it('classifies the if/else and the Merge module as flow control, and reads the Merge outputs', () => {
    const g = graphOf(ifElse());
    assert.equal(classify(g.byId.get('2')!).flow, 'if-else');
    assert.equal(classify(g.byId.get('5')!).flow, 'merge');
    assert.equal(classify(g.byId.get('5')!).role, 'flow');
    assert.deepEqual(g.byId.get('5')!.outputs, [{ name: 'answer', mappings: ['{{3.result}}', ''] }]);
    assert.deepEqual(g.byId.get('6')!.outputs, []);
  });

  it('gives flowOf and nestedFlows the branch flows', () => {
    const g = graphOf(ifElse());
    assert.deepEqual(flowOf(g, g.byId.get('4')!), ['3', '4']);
    assert.deepEqual(nestedFlows(g.byId.get('2')!), [['3', '4'], []]);
    assert.deepEqual(nestedFlows(graphOf(ifElse({ disabled: true })).byId.get('2')!, { enabledOnly: true }), [[]]);
  });

  it('parses the fixtures if/else: a custom app in the else branch, a Slack message in the condition branch', () => {
    const g = graphOf(fixtureJson('crm-custom-app-ifelse.blueprint.json'));
    assert.equal(g.byId.get('3')!.pointer, '/flow/1/branches/0/flow/0');
    assert.equal(g.byId.get('4')!.pointer, '/flow/1/branches/1/flow/0');
    assert.equal(g.byId.get('4')!.custom, true);
    assert.deepEqual(
      g.edges.filter((e) => e.to === '5'),
      [
        { from: '3', to: '5', kind: 'merge', routeIndex: 0 },
        { from: '4', to: '5', kind: 'merge', routeIndex: 1 },
      ],
    );
  });
});

describe('parseBlueprint: AI agent tools and settings', () => {
  it('walks each tool flow of the fixtures agent: container tool, parent the agent, an edge agent → tool', () => {
    const g = graphOf(fixtureJson('support-ai-agent.blueprint.json'));
    assert.deepEqual(
      placesOf(g).filter((p) => p.includes(' tool ')),
      ['3 tool 2 0 0 /flow/1/tools/0/flow/0', '4 tool 2 1 0 /flow/1/tools/1/flow/0'],
    );
    assert.deepEqual(
      g.edges.filter((e) => e.kind === 'tool'),
      [
        { from: '2', to: '3', kind: 'tool', routeIndex: 0 },
        { from: '2', to: '4', kind: 'tool', routeIndex: 1 },
      ],
    );
    // The next module of the flow follows the agent, not its tools.
    assert.ok(g.edges.some((e) => e.kind === 'next' && e.from === '2' && e.to === '5'));
    assert.deepEqual(g.topLevelIds, ['1', '2', '5', '6']);
  });

  it("reads the agent's settings: its tools with names, the recursion limit and history size as numbers", () => {
    const agent = graphOf(fixtureJson('support-ai-agent.blueprint.json')).byId.get('2')!.agent;
    assert.deepEqual(agent, {
      defined: 'scenario',
      agentId: null,
      tools: [
        {
          kind: 'flow',
          name: 'Look up order',
          description: 'Finds an order row by its number',
          moduleIds: ['3'],
          scenarioId: null,
          approvalMode: null,
          runsWithoutApproval: null,
          pointer: '/flow/1/tools/0',
        },
        {
          kind: 'flow',
          name: 'Create draft',
          description: 'Creates a Gmail draft answering the customer',
          moduleIds: ['4'],
          scenarioId: null,
          approvalMode: null,
          runsWithoutApproval: null,
          pointer: '/flow/1/tools/1',
        },
      ],
      recursionLimit: 20,
      historyIterations: 5,
    });
  });

  it('reads approvalMode where the export carries it (auto-run: runs without approval), and scenario tools of a Make agent', () => {
    const g = graphOf(
      bp([
        m(1, 'ai-local-agent:RunLocalAIAgent', {
          mapper: { message: 'hi', modelConfig: { recursionLimit: 300, iterationsFromHistoryCount: '' } },
          tools: [
            { name: 'Send', approvalMode: 'auto-run', flow: [m(2, 'google-email:sendAnEmail')] },
            { name: 'Book', approvalMode: 'manual', flow: [m(3, 'google-calendar:createAnEvent')] },
          ],
        }),
        m(4, 'ai-agent:RunAnAIAgent', {
          mapper: {
            agent: '0b6f1c1e-5f6e-4a53-9d43-2d7c9f1e8a10',
            scenarios: [{ makeScenarioId: 123, approvalMode: 'auto-run' }],
          },
        }),
        m(5, 'openai-gpt-3:CreateCompletion'),
      ]),
    );
    const local = g.byId.get('1')!.agent!;
    assert.deepEqual(
      local.tools.map((t) => [t.name, t.approvalMode, t.runsWithoutApproval, t.moduleIds]),
      [
        ['Send', 'auto-run', true, ['2']],
        ['Book', 'manual', false, ['3']],
      ],
    );
    assert.equal(local.recursionLimit, 300);
    assert.equal(local.historyIterations, null);
    const remote = g.byId.get('4')!.agent!;
    assert.equal(remote.defined, 'make');
    assert.equal(remote.agentId, '0b6f1c1e-5f6e-4a53-9d43-2d7c9f1e8a10');
    assert.deepEqual(remote.tools, [
      {
        kind: 'scenario',
        name: null,
        description: null,
        moduleIds: [],
        scenarioId: '123',
        approvalMode: 'auto-run',
        runsWithoutApproval: true,
        pointer: '/flow/1/mapper/scenarios/0',
      },
    ]);
    assert.equal(remote.recursionLimit, null);
    assert.equal(g.byId.get('5')!.agent, null);
  });
});

describe('parseBlueprint: orphans and subscenarios', () => {
  it('parses each chain of metadata.designer.orphans as modules of container orphan, with next edges inside a chain only', () => {
    const g = graphOf(fixtureJson('orphan-subscenario.blueprint.json'));
    assert.deepEqual(placesOf(g), [
      '1 flow null null 0 /flow/0',
      '2 flow null null 0 /flow/1',
      '3 orphan null 0 0 /metadata/designer/orphans/0/0',
      '4 orphan null 0 0 /metadata/designer/orphans/0/1',
    ]);
    assert.deepEqual(g.orphanIds, [['3', '4']]);
    assert.deepEqual(g.topLevelIds, ['1', '2']);
    assert.deepEqual(
      sorted(g.edges),
      sorted([
        { from: '1', to: '2', kind: 'next' },
        { from: '3', to: '4', kind: 'next' },
      ]),
    );
  });

  it('accepts an orphan written as a single module object, and ignores entries that are neither', () => {
    const g = graphOf(
      bp([m(1, 'util:SetVariable2')], {}, { designer: { orphans: [m(7, 'slack:CreateMessage'), null] } }),
    );
    assert.deepEqual(placesOf(g).slice(1), ['7 orphan null 0 0 /metadata/designer/orphans/0']);
    assert.deepEqual(g.orphanIds, [['7'], []]);
  });

  it('classifies a subscenario call as an opaque sink (its callee is never in the same export), nothing else', () => {
    const g = graphOf(fixtureJson('orphan-subscenario.blueprint.json'));
    assert.equal(classify(g.byId.get('2')!).opaque, true);
    assert.deepEqual(
      g.modules.filter((x) => classify(x).opaque).map((x) => x.id),
      ['2'],
    );
    assert.equal(classify(graphOf(bp([m(1, 'scenario-service:ReturnData')])).modules[0]!).opaque, false);
  });
});

describe('parseBlueprint: ids and errors across containers', () => {
  const refused = (blueprint: unknown) => {
    const r = parseBlueprint(blueprint);
    assert.equal(r.ok, false);
    return r.ok ? null : r.error.issues[0];
  };

  it('refuses a module id used twice across the flow, a branch, a tool and an orphan, with the pointer of the second', () => {
    const branch = bp([
      m(1, 'builtin:BasicIfElse', { branches: [{ type: 'else', flow: [m(1, 'slack:CreateMessage')] }] }),
    ]);
    assert.deepEqual(refused(branch), {
      pointer: '/flow/0/branches/0/flow/0/id',
      message: 'duplicate module id 1 (first at /flow/0)',
    });
    const tool = bp([m(1, 'ai-local-agent:RunLocalAIAgent', { tools: [{ flow: [m(1, 'slack:CreateMessage')] }] })]);
    assert.equal(refused(tool)!.pointer, '/flow/0/tools/0/flow/0/id');
    const orphan = bp([m(1, 'util:SetVariable2')], {}, { designer: { orphans: [[m(1, 'slack:CreateMessage')]] } });
    assert.deepEqual(refused(orphan), {
      pointer: '/metadata/designer/orphans/0/0/id',
      message: 'duplicate module id 1 (first at /flow/0)',
    });
  });

  it('numbers unnumbered slots across containers in document order', () => {
    const g = graphOf(
      bp(
        [
          m(1, 'builtin:BasicIfElse', { branches: [{ type: 'else', flow: [m(null, 'placeholder:Placeholder')] }] }),
          m(null, 'placeholder:Placeholder'),
        ],
        {},
        { designer: { orphans: [[m(null, 'placeholder:Placeholder')]] } },
      ),
    );
    assert.deepEqual(
      g.modules.map((x) => `${x.id} ${x.pointer}`),
      [
        '1 /flow/0',
        'unnumbered-1 /flow/0/branches/0/flow/0',
        'unnumbered-2 /flow/1',
        'unnumbered-3 /metadata/designer/orphans/0/0',
      ],
    );
  });

  it('refuses malformed branches and tools with the pointer of the problem, and bad modules inside them', () => {
    const cases: [unknown, string][] = [
      [bp([m(1, 'builtin:BasicIfElse', { branches: {} })]), '/flow/0/branches'],
      [bp([m(1, 'builtin:BasicIfElse', { branches: ['x'] })]), '/flow/0/branches/0'],
      [bp([m(1, 'builtin:BasicIfElse', { branches: [{ flow: {} }] })]), '/flow/0/branches/0/flow'],
      [bp([m(1, 'ai-local-agent:RunLocalAIAgent', { tools: 'x' })]), '/flow/0/tools'],
      [bp([m(1, 'ai-local-agent:RunLocalAIAgent', { tools: [{ flow: 3 }] })]), '/flow/0/tools/0/flow'],
      [
        bp([m(1, 'ai-local-agent:RunLocalAIAgent', { tools: [{ flow: [{ id: 2 }] }] })]),
        '/flow/0/tools/0/flow/0/module',
      ],
      [
        bp([m(1, 'util:SetVariable2')], {}, { designer: { orphans: [[{ id: 'x', module: 'a:b' }]] } }),
        '/metadata/designer/orphans/0/0/id',
      ],
    ];
    for (const [blueprint, pointer] of cases) assert.equal(refused(blueprint)!.pointer, pointer);
  });
});
