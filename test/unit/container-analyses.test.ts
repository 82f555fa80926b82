/**
 * Every analysis sees the modules of if/else branches, agent tools and orphans (issue 32 §1), with
 * their real ids: reachability (orphans never run), the string walks (mapper strings and every
 * string of the export), data flow, the policies (a finding on a branch, a tool, an orphan), the SVG
 * renderer and `gov scan`'s regions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint, parseBlueprint, type ScenarioGraph } from '../../src/engine/index.js';
import { Analysis } from '../../src/engine/analysis.js';
import { ORPHAN_REASON } from '../../src/engine/reachability.js';
import { downstreamOf } from '../../src/engine/policies/helpers.js';
import { renderScenarioSvg } from '../../src/render/index.js';
import { locateFindings } from '../../src/cli/scan/locate.js';
import { fixtureJson, fixtureText } from '../helpers/fixtures.js';
import { bp, m } from '../helpers/blueprints.js';

const IF_ELSE = 'webhook-ifelse-ai-reply.blueprint.json';
const ORPHAN = 'orphan-subscenario.blueprint.json';
const AGENT = 'support-ai-agent.blueprint.json';

function graphOf(blueprint: unknown): ScenarioGraph {
  const r = parseBlueprint(blueprint);
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  return r.graph;
}

function evaluationOf(file: string) {
  const r = evaluateBlueprint(fixtureJson(file), { scenarioId: file });
  assert.ok(r.ok);
  return r.evaluation;
}

/** `module → severity` of each finding of a policy. */
function findings(file: string, policy: string): Record<string, string> {
  const v = evaluationOf(file).violations.find((x) => x.policy === policy);
  return Object.fromEntries((v?.failing_modules ?? []).map((f) => [f.module_id, f.severity]));
}

describe('reachability of the new containers', () => {
  it('marks every orphan unreachable, with why, and nothing else of the fixture', () => {
    const dead = new Analysis(graphOf(fixtureJson(ORPHAN))).unreachable();
    assert.deepEqual(
      [...dead],
      [
        ['3', ORPHAN_REASON],
        ['4', ORPHAN_REASON],
      ],
    );
  });

  it('marks a disabled branch, a branch whose condition can never pass, and the tools of an unreachable agent', () => {
    const blueprint = bp([
      m(1, 'util:SetVariable2', { mapper: { name: 'mode', value: 'live' } }),
      m(2, 'builtin:BasicIfElse', {
        branches: [
          {
            type: 'condition',
            label: 'Off',
            disabled: true,
            conditions: [[{ a: '1', o: 'exist' }]],
            flow: [m(3, 'a:b')],
          },
          {
            type: 'condition',
            label: 'Test mode',
            conditions: [[{ a: '{{1.mode}}', o: 'text:equal', b: 'test' }]],
            flow: [
              m(4, 'ai-local-agent:RunLocalAIAgent', {
                tools: [{ name: 't', flow: [m(5, 'google-email:sendAnEmail')] }],
              }),
            ],
          },
          { type: 'else', flow: [m(6, 'slack:CreateMessage')] },
        ],
      }),
      m(7, 'builtin:BasicMerge'),
    ]);
    const dead = new Analysis(graphOf(blueprint)).unreachable();
    assert.deepEqual([...dead.keys()], ['3', '4', '5']);
    assert.equal(dead.get('3'), 'branch 1 of if/else 2 is disabled');
    assert.match(
      dead.get('4')!,
      /^the condition of branch 2 \("Test mode"\) of if\/else 2 can never pass \(\{\{1\.mode\}\}/,
    );
    assert.equal(dead.get('5'), dead.get('4'));
  });

  it('caps behaviour findings on an orphan at low but keeps the artefact finding (a literal token in the export) at its severity', () => {
    assert.deepEqual(findings(ORPHAN, 'SEC-1'), { '3': 'critical' });
    assert.deepEqual(findings(ORPHAN, 'DI-1'), { '3': 'low', '4': 'low' });
    const di1 = evaluationOf(ORPHAN).violations.find((v) => v.policy === 'DI-1')!;
    assert.match(di1.failing_modules[0]!.reason, /not connected to the flow/);
  });
});

describe('string walks of the new containers', () => {
  it('Analysis.strings() holds the mapper strings of branch, tool and orphan modules, and the Merge outputs', () => {
    const ifElse = new Analysis(graphOf(fixtureJson(IF_ELSE))).strings();
    const sent = ifElse.find((l) => l.pointer === '/flow/1/branches/0/flow/1/mapper/content')!;
    assert.equal(sent.module.id, '4');
    assert.equal(sent.value, '{{3.result}}');
    const tool = new Analysis(graphOf(fixtureJson(AGENT))).strings();
    assert.ok(tool.some((l) => l.module.container === 'tool' && l.value === '{{2.to}}'));
    const orphan = new Analysis(graphOf(fixtureJson(ORPHAN))).strings();
    assert.ok(orphan.some((l) => l.module.id === '3' && l.fieldName === 'Authorization'));
    const merge = new Analysis(
      graphOf(bp([m(5, 'builtin:BasicMerge', { outputs: [{ name: 'answer', mappings: ['{{3.result}}'] }] })])),
    ).strings();
    assert.deepEqual(
      merge.map((l) => [l.pointer, l.fieldName, l.section]),
      [['/flow/0/outputs/0/mappings/0', 'answer', 'mapper']],
    );
  });

  it('allStrings() gives orphan strings their module and section, even when the scenario metadata is not asked for', () => {
    const a = new Analysis(graphOf(fixtureJson(ORPHAN)));
    for (const leaves of [a.allStrings(), a.allStrings({ sections: new Set(['mapper']) })]) {
      const header = leaves.find((l) => l.pointer === '/metadata/designer/orphans/0/0/mapper/headers/0/value')!;
      assert.equal(header.module?.id, '3');
      assert.equal(header.section, 'mapper');
      assert.equal(header.fieldName, 'Authorization');
    }
  });

  it('allStrings() reads a branch condition as a filter of the if/else (its b operand named by the a operand) and branch module strings as theirs', () => {
    const leaves = new Analysis(graphOf(fixtureJson(IF_ELSE))).allStrings();
    const b = leaves.find((l) => l.pointer === '/flow/1/branches/0/conditions/0/0/b')!;
    assert.deepEqual([b.module?.id, b.section, b.fieldName, b.value], ['2', 'filter', 'type', 'question']);
    const model = leaves.find((l) => l.pointer === '/flow/1/branches/0/flow/0/mapper/model')!;
    assert.deepEqual([model.module?.id, model.section], ['3', 'mapper']);
  });
});

describe('data flow through the new containers', () => {
  it('follows references into and out of a branch, through the Merge outputs, and reads branch conditions as the if/else', () => {
    const df = new Analysis(
      graphOf(
        bp([
          m(1, 'gateway:CustomWebHook'),
          m(2, 'builtin:BasicIfElse', {
            branches: [
              {
                type: 'condition',
                label: 'Q',
                conditions: [[{ a: '{{1.kind}}', o: 'text:equal', b: 'q' }]],
                flow: [m(3, 'openai-gpt-3:CreateCompletion', { mapper: { prompt: '{{1.text}}' } })],
              },
              { type: 'else', flow: [] },
            ],
          }),
          m(4, 'builtin:BasicMerge', { outputs: [{ name: 'answer', mappings: ['{{3.result}}', ''] }] }),
          m(5, 'slack:CreateMessage', { mapper: { text: '{{4.answer}}' } }),
        ]),
      ),
    ).dataflow();
    assert.deepEqual(
      df.promptRefsOf('3').map((r) => `${r.moduleId}.${r.path}`),
      ['1.text'],
    );
    assert.deepEqual(
      df.filterRefsOf('2').map((r) => `${r.moduleId}.${r.path}`),
      ['1.kind'],
    );
    assert.ok(df.readersOf('1').includes('2'));
    assert.equal(df.isAiDerived('4'), true, 'the Merge module passes on the AI answer of the branch');
    assert.deepEqual(
      df.aiInputs('5').map((r) => r.moduleId),
      ['4'],
    );
  });

  it("reads a tool's inputs filled by its agent as AI output", () => {
    const df = new Analysis(graphOf(fixtureJson(AGENT))).dataflow();
    assert.deepEqual([...new Set(df.aiInputs('4').map((r) => r.moduleId))], ['2']);
  });

  it('counts the modules after the Merge as downstream of a branch module, and the branches as downstream of the if/else', () => {
    const a = new Analysis(graphOf(fixtureJson(IF_ELSE)));
    const ids = (id: string) =>
      downstreamOf(a.module(id), a)
        .map((x) => x.id)
        .sort();
    assert.deepEqual(ids('3'), ['4', '7', '8']);
    assert.deepEqual(ids('2'), ['3', '4', '5', '7', '8']);
  });
});

describe('policies on the new containers', () => {
  it('reports the AI answer mailed to the caller in a branch (AI-1), its prompt (AI-2) and the unhandled send (DI-1), at the branch modules', () => {
    // The answer goes back to the address of the payload that started the run (issue 32: sender).
    assert.deepEqual(findings(IF_ELSE, 'AI-1'), { '4': 'low' });
    assert.deepEqual(findings(IF_ELSE, 'AI-2'), { '3': 'medium' });
    assert.deepEqual(findings(IF_ELSE, 'DI-1'), { '4': 'medium' });
    // The else branch's write is handled by an Ignore: DI-2 sees it, DI-1 does not.
    assert.deepEqual(findings(IF_ELSE, 'DI-2'), { '5': 'high' });
  });

  it('counts branch, tool and orphan modules in the module graph, with the new edge kinds', () => {
    const graph = evaluationOf(IF_ELSE).module_graph;
    assert.deepEqual(graph.nodes.map((n) => n.module_id).sort(), ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.deepEqual([...new Set(graph.edges.map((e) => e.kind))].sort(), ['branch', 'error', 'merge', 'next']);
    assert.equal(evaluationOf(ORPHAN).module_count, 4);
    assert.ok(evaluationOf(AGENT).module_graph.edges.some((e) => e.kind === 'tool' && e.route_index === 1));
  });
});

describe('the SVG and gov scan regions on the new containers', () => {
  it('draws every module once, the branch links with their condition, tool links, and the orphans faded', () => {
    for (const file of [IF_ELSE, ORPHAN, AGENT])
      for (const layout of ['auto', 'computed'] as const) {
        const g = graphOf(fixtureJson(file));
        const svg = renderScenarioSvg(g, evaluationOf(file).violations, { layout });
        const drawn = [...svg.matchAll(/data-module-id="([^"]+)"/g)].map((x) => x[1]).sort();
        assert.deepEqual(drawn, g.modules.map((x) => x.id).sort(), `${file} ${layout}`);
      }
    const ifElse = renderScenarioSvg(graphOf(fixtureJson(IF_ELSE)), []);
    assert.match(ifElse, /<path class="link branch" data-from="2" data-to="3" data-route="0"/);
    assert.match(ifElse, /<g class="filter" data-to="3"><title>Filter: Question/);
    assert.match(ifElse, /<path class="link merge" data-from="4" data-to="7"/);
    assert.match(
      renderScenarioSvg(graphOf(fixtureJson(AGENT)), []),
      /<path class="link tool" data-from="2" data-to="4"/,
    );
    assert.match(
      renderScenarioSvg(graphOf(fixtureJson(ORPHAN)), []),
      /<g class="module orphan" data-module-id="3" opacity="0.55"/,
    );
  });

  it('locates findings on a branch module and on an orphan at their own lines', () => {
    for (const file of [IF_ELSE, ORPHAN]) {
      const text = fixtureText(file);
      const evaluation = evaluationOf(file);
      const located = locateFindings(text, JSON.parse(text), evaluation);
      const lines = text.split('\n');
      for (const v of evaluation.violations)
        for (const f of v.failing_modules) {
          const at = located.get(f.fingerprint)!;
          const pointer = graphOf(JSON.parse(text)).byId.get(f.module_id)!.pointer;
          assert.ok(at.pointer.startsWith(pointer), `${file} ${v.policy} ${f.module_id}: ${at.pointer}`);
          if (!f.evidence || at.pointer === `${pointer}/module`)
            assert.match(lines[at.region.startLine - 1]!, /"module": /, `${v.policy} ${f.module_id}`);
        }
      if (file === ORPHAN) {
        const sec1 = evaluation.violations.find((v) => v.policy === 'SEC-1')!.failing_modules[0]!;
        const at = located.get(sec1.fingerprint)!;
        assert.equal(at.pointer, '/metadata/designer/orphans/0/0/mapper/headers/0/value');
        assert.match(lines[at.region.startLine - 1]!, /"value": "Bearer ghp_/);
      }
    }
  });
});
