/** render/svg: the scenario picture (issue 18): layout, links and filters, marks, escaping, safety, every corpus blueprint, the largest ones. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioGraph } from '../../src/engine/index.js';
import { evaluateBlueprint, parseBlueprint } from '../../src/engine/index.js';
import {
  layoutScenario,
  MIN_CENTRE_DISTANCE,
  MODULE_RADIUS,
  renderScenarioSvg,
  type RenderViolation,
} from '../../src/render/index.js';
import { corpusFacts, corpusJson, eachCorpus, type CorpusName } from '../helpers/corpus.js';
import { bp, largeBlueprint, m, type Mod } from '../helpers/blueprints.js';

function graphOf(blueprint: unknown): ScenarioGraph {
  const r = parseBlueprint(blueprint);
  assert.ok(r.ok);
  return r.graph;
}

const filter = (name: string) => ({ name, conditions: [[{ a: '{{1.status}}', b: 'paid', o: 'text:equal' }]] });

/** Webhook → router with three filtered routes (3, 4→5, 6); module 5 has an error handler (7). */
function routed(): ScenarioGraph {
  return graphOf(
    bp([
      m(1, 'gateway:CustomWebHook'),
      m(2, 'builtin:BasicRouter', {
        routes: [
          { flow: [m(3, 'google-sheets:addRow', { filter: filter('Paid orders') })] },
          {
            flow: [
              m(4, 'util:SetVariable2', { filter: filter('Refunds') }),
              m(5, 'http:ActionSendData', { onerror: [m(7, 'builtin:Break')] }),
            ],
          },
          { flow: [m(6, 'slack:CreateMessage', { filter: filter('Everything else') })] },
        ],
      }),
    ]),
  );
}

/** The `<g class="module ...">` element of module `id` (its attributes and content up to the next module). */
function moduleElement(svg: string, id: string): string {
  const chunks = svg.split(/<g class="module(?=[ "])/).filter((c) => c.includes(`data-module-id="${id}"`));
  assert.equal(chunks.length, 1, `one element for module ${id}`);
  return chunks[0]!.split('</g>\n</svg>')[0]!;
}

/** Circle centres of each module element, by `data-module-id`. */
function circles(svg: string): Map<string, { x: number; y: number; r: number }> {
  const out = new Map<string, { x: number; y: number; r: number }>();
  for (const chunk of svg.split(/<g class="module(?=[ "])/).slice(1)) {
    const id = /data-module-id="([^"]*)"/.exec(chunk)![1]!;
    const c = /<circle class="icon" cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"/.exec(chunk)!;
    assert.ok(!out.has(id), `module ${id} drawn once`);
    out.set(id, { x: Number(c[1]), y: Number(c[2]), r: Number(c[3]) });
  }
  return out;
}

/** Tags balance, attributes are `name="value"` without raw `<`, `>` or `&` outside entities: the output is well-formed XML. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const text = svg.replace(
    /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>/g,
    (_t, close, name, _a, self) => {
      if (close) assert.equal(stack.pop(), name, `</${name}> closes the open element`);
      else if (!self) stack.push(name as string);
      return '';
    },
  );
  assert.deepEqual(stack, [], 'every element closed');
  assert.doesNotMatch(text, /[<>]/, 'no stray < or > in text');
  assert.doesNotMatch(svg.replace(/&(?:amp|lt|gt|quot|#39);/g, ''), /&/, 'every & is an entity');
}

function assertSafe(svg: string): void {
  assert.doesNotMatch(svg, /<script/i);
  assert.doesNotMatch(svg, /\son[a-z]+\s*=/i, 'no inline event handler');
  assert.doesNotMatch(
    svg,
    /href|url\(|<style|\sstyle=|<foreignObject|<image/i,
    'no reference, no style element or attribute',
  );
  assert.doesNotMatch(svg.replace('xmlns="http://www.w3.org/2000/svg"', ''), /https?:/i, 'nothing external');
}

function viewBox(svg: string): [number, number, number, number] {
  const v = /viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"/.exec(svg)!;
  return [Number(v[1]), Number(v[2]), Number(v[3]), Number(v[4])];
}

describe('renderScenarioSvg', () => {
  it("fans a router's routes out one row each, to the right of the router, with each route's filter on its link", () => {
    const graph = routed();
    const layout = layoutScenario(graph);
    assert.equal(layout.source, 'computed', 'every module of m() sits at 0,0: the canvas positions are not usable');
    const at = (id: string) => layout.centres.get(id)!;
    assert.equal(at('3').y, at('2').y, 'route 0 continues the router row');
    assert.ok(at('3').y < at('4').y && at('4').y < at('6').y, 'routes 1 and 2 each a row further down');
    for (const head of ['3', '4', '6']) assert.ok(at(head).x > at('2').x && at(head).x === at('3').x);
    assert.ok(at('1').x < at('2').x && at('4').x < at('5').x, 'flow left to right');
    const svg = renderScenarioSvg(graph, []);
    for (const [i, to] of ['3', '4', '6'].entries())
      assert.match(svg, new RegExp(`<path class="link route" data-from="2" data-to="${to}" data-route="${i}"`));
    for (const [to, name] of [
      ['3', 'Paid orders'],
      ['4', 'Refunds'],
      ['6', 'Everything else'],
    ])
      assert.match(
        svg,
        new RegExp(`<g class="filter" data-to="${to}"><title>Filter: ${name} \\(1 condition group\\)</title>`),
      );
    assertWellFormed(svg);
  });

  it('draws an error handler below its module with a dashed error link', () => {
    const graph = routed();
    const { centres } = layoutScenario(graph);
    assert.equal(centres.get('7')!.x, centres.get('5')!.x);
    assert.ok(centres.get('7')!.y > centres.get('5')!.y);
    const svg = renderScenarioSvg(graph, []);
    assert.match(
      svg,
      /<path class="link error" data-from="5" data-to="7" d="[^"]+" stroke="#dc2626" stroke-width="2" stroke-dasharray="6 4"\/>/,
    );
    assert.doesNotMatch(svg, /class="link (?:next|route)"[^>]*stroke-dasharray/, 'flow and route links are solid');
  });

  it("marks each module with its worst badge, failing ring and count, from the engine's violations", () => {
    const blueprint = bp([m(1, 'gateway:CustomWebHook'), m(2, 'google-sheets:addRow'), m(3, 'util:SetVariable2')]);
    const r = evaluateBlueprint(blueprint, { scenarioId: 's' });
    assert.ok(r.ok);
    const svg = renderScenarioSvg(graphOf(blueprint), r.evaluation.violations);
    const two = r.evaluation.module_summary.find((s) => s.module_id === '2')!;
    const el = moduleElement(svg, '2');
    assert.match(el, new RegExp(`^ failing" data-module-id="2" data-badge="${two.badge}" tabindex="0" role="button"`));
    assert.match(el, /<circle class="ring failing"[^>]*stroke="#dc2626" stroke-width="4"/);
    assert.match(el, new RegExp(`<g class="badge" data-severity="${two.badge}">.*>${two.badge.toUpperCase()}</text>`));
    assert.match(el, new RegExp(`<g class="count">.*>${two.violation_count}</text></g>`));
    assert.match(
      el,
      new RegExp(
        `aria-label="Google Sheets Add Row: ${two.badge.toUpperCase()}, ${two.violation_count} findings?, failing`,
      ),
    );
  });

  it('badges from hand-made violations: worst severity of the findings not waived; warn only is not failing; waived only is marked waived', () => {
    const graph = routed();
    const violations: RenderViolation[] = [
      {
        policy: 'SEC-1',
        severity: 'critical',
        status: 'fail',
        title: 'Hard-coded credential',
        failing_modules: [
          {
            module_id: '3',
            severity: 'critical',
            reason: 'a key',
            waived: { waiver_id: 'w1', expires_at: '2099-01-01' },
          },
          { module_id: '5', severity: 'critical', reason: 'a key' },
        ],
      },
      {
        policy: 'ARC-4',
        severity: 'low',
        status: 'warn',
        title: 'Default labels',
        failing_modules: [
          { module_id: '3', severity: 'low', reason: 'default label', waived: true },
          { module_id: '4', severity: 'low', reason: 'default label' },
          { module_id: '5', severity: 'low', reason: 'default label' },
        ],
      },
      {
        policy: 'DI-1',
        severity: 'high',
        status: 'fail',
        title: 'No handler',
        waived: { waiver_id: 'w2', expires_at: '2099-01-01' },
        failing_modules: [{ module_id: '6', severity: 'high', reason: 'writes' }],
      },
    ];
    const svg = renderScenarioSvg(graph, violations);
    assert.match(moduleElement(svg, '5'), /^ failing" data-module-id="5" data-badge="critical"/);
    assert.match(moduleElement(svg, '5'), /aria-label="Http Action Send Data: CRITICAL, 2 findings, failing"/);
    assert.match(
      moduleElement(svg, '4'),
      /^" data-module-id="4" data-badge="low"/,
      'a warn finding: badge, no failing ring',
    );
    assert.doesNotMatch(moduleElement(svg, '4'), /ring failing/);
    for (const id of ['3', '6']) {
      const el = moduleElement(svg, id);
      assert.match(el, new RegExp(`^ waived" data-module-id="${id}" data-badge="waived"`));
      assert.match(el, /aria-label="[^"]*: waived findings only/);
      assert.match(el, /<circle class="ring waived"[^>]*stroke-dasharray/);
      assert.match(el, />WAIVED</);
      assert.doesNotMatch(el, /failing|class="count"/);
    }
    assert.match(
      moduleElement(svg, '1'),
      /^" data-module-id="1" tabindex="0" role="button" aria-label="Gateway Custom Web Hook: no findings"><title>/,
    );
  });

  it("escapes tenants' names, filters, reasons and the scenario name in text and attributes", () => {
    const hostile = `<script>alert("x")</script> & 'q' \u0001`;
    const blueprint = {
      ...bp([
        m(1, 'gateway:CustomWebHook', { metadata: { designer: { x: 0, y: 0, name: hostile } } }),
        m(2, 'http:ActionSendData', {
          filter: filter(hostile),
          metadata: { designer: { x: 300, y: 0, name: hostile } },
        }),
      ]),
      name: hostile,
    };
    const svg = renderScenarioSvg(graphOf(blueprint), [
      {
        policy: 'P-1',
        severity: 'high',
        status: 'fail',
        title: hostile,
        failing_modules: [{ module_id: '2', severity: 'high', reason: hostile }],
      },
    ]);
    assert.doesNotMatch(svg, /<script|alert\("|'q'/);
    assert.ok(!svg.includes('\u0001'), 'a control character XML cannot carry is replaced');
    assert.match(
      svg,
      // The drawn (shortened) lines first, then the full names (the "Label in Name" rule).
      /aria-label="Gateway &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/scrip…: no findings \(Gateway · &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;q&#39; \uFFFD\)"/,
    );
    assert.match(svg, /<title id="scenario-title">Scenario &lt;script&gt;/);
    assertWellFormed(svg);
    assertSafe(svg);
  });

  it('is deterministic and self-contained: same input, same bytes; no script, handler, style or external reference', () => {
    const a = renderScenarioSvg(routed(), [], { idPrefix: 'x 1' });
    const b = renderScenarioSvg(routed(), [], { idPrefix: 'x 1' });
    assert.equal(a, b);
    assert.match(
      a,
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="scenario" role="group" aria-labelledby="x_1-title"/,
    );
    assert.match(a, /<title id="x_1-title">Scenario Test scenario: 7 modules, 0 failing<\/title>/);
    assertSafe(a);
    assertWellFormed(a);
  });

  it('uses the canvas positions, scaled, when every module has a distinct one; else computes a layout', () => {
    const at = (id: number, x: number, y: number, extra: Record<string, unknown> = {}): Mod =>
      m(id, 'util:SetVariable2', { metadata: { designer: { x, y } }, ...extra });
    const canvas = layoutScenario(graphOf(bp([at(1, 0, 0), at(2, 300, 0), at(3, 600, -300)])));
    assert.equal(canvas.source, 'canvas');
    assert.deepEqual(
      [...canvas.centres],
      [
        ['1', { x: 0, y: 180 }],
        ['2', { x: 180, y: 180 }],
        ['3', { x: 360, y: 0 }],
      ],
    );
    // Stacked positions (closer than MIN_CANVAS_GAP) or a module without one: computed.
    assert.equal(layoutScenario(graphOf(bp([at(1, 0, 0), at(2, 10, 0)]))).source, 'computed');
    assert.equal(
      layoutScenario(graphOf(bp([at(1, 0, 0), m(2, 'util:SetVariable2', { metadata: {} })]))).source,
      'computed',
    );
    assert.equal(layoutScenario(graphOf(bp([at(1, 0, 0), at(2, 300, 0)])), 'computed').source, 'computed');
    const empty = renderScenarioSvg(graphOf(bp([])), []);
    assert.match(empty, /No modules/);
    assertWellFormed(empty);
  });

  /** The blueprints of a corpus, parsed. */
  const graphsOf = (corpus: CorpusName) =>
    corpusFacts(corpus).map((f) => ({ file: f.file, graph: graphOf(corpusJson(f.file, corpus)) }));
  type Drawn = readonly { readonly file: string; readonly graph: ScenarioGraph }[];

  const spaced = (all: () => Drawn) => () => {
    for (const { file, graph } of all())
      for (const mode of ['auto', 'computed'] as const) {
        const points = [...layoutScenario(graph, mode).centres.values()];
        assert.equal(points.length, graph.modules.length, file);
        for (let i = 0; i < points.length; i++)
          for (let j = i + 1; j < points.length; j++)
            assert.ok(
              Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y) >= MIN_CENTRE_DISTANCE - 1e-9,
              `${file} (${mode})`,
            );
      }
  };

  const labelled = (all: () => Drawn) => () => {
    // axe-core: the visible text's words (text nodes, lower-cased, letters and digits) must be a
    // contiguous run of the accessible name's words, parentheticals removed.
    const words = (text: string) =>
      text
        .replace(/\([^()]*\)/g, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .split(' ')
        .filter(Boolean);
    const unescape = (text: string) =>
      text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    for (const { file, graph } of all()) {
      const svg = renderScenarioSvg(graph, []);
      for (const m of graph.modules) {
        const el = moduleElement(svg, m.id);
        const label = unescape(/aria-label="([^"]*)"/.exec(el)![1]!);
        const drawn = [...el.replace(/<title>[\s\S]*?<\/title>/, '').matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
          .map((t) => unescape(t[1]!))
          .join(' ');
        const name = words(label);
        const seen = words(drawn);
        const found = name.some((_, i) => seen.every((w, j) => name[i + j] === w));
        assert.ok(found, `${file} module ${m.id}: "${drawn}" in "${label}"`);
        // Browsers join adjacent text elements without a space ("GatewayCustom Web Hook"): keep one between.
        assert.doesNotMatch(el, /<\/text><(?!\/)/, `${file} module ${m.id}`);
      }
    }
  };

  /** Every module drawn once, no two circles overlapping, all inside the viewBox. */
  const drawsLarge = (largest: () => Drawn[number], layout: 'auto' | 'computed') => () => {
    const { file, graph } = largest();
    assert.ok(graph.modules.length >= 150, `${file} has ${graph.modules.length} modules`);
    const svg = renderScenarioSvg(graph, [], { layout });
    const drawn = circles(svg);
    assert.deepEqual([...drawn.keys()].sort(), graph.modules.map((x) => x.id).sort());
    assert.equal(svg.match(/data-module-id="/g)!.length, graph.modules.length);
    const list = [...drawn.values()];
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const d = Math.hypot(list[i]!.x - list[j]!.x, list[i]!.y - list[j]!.y);
        assert.ok(d >= MIN_CENTRE_DISTANCE - 0.2, `circles ${i} and ${j} are ${d} apart`);
      }
    const [x, y, w, h] = viewBox(svg);
    for (const c of list) {
      assert.equal(c.r, MODULE_RADIUS);
      assert.ok(
        c.x - c.r >= x && c.x + c.r <= x + w && c.y - c.r >= y && c.y + c.r + 32 <= y + h,
        'circle and labels inside',
      );
    }
    assertWellFormed(svg);
    assertSafe(svg);
  };

  eachCorpus(
    'every blueprint of a corpus',
    ['fixtures', 'make', 'make-extra', 'make-more'],
    (corpus, { it, before }) => {
      let graphs: Drawn = [];
      before(() => {
        graphs = graphsOf(corpus);
      });
      it(
        'lays out every blueprint, canvas and computed, with no two module centres closer than MIN_CENTRE_DISTANCE',
        spaced(() => graphs),
      );
      it(
        "names each module with its drawn words first, in order (WCAG 2.5.3 Label in Name, as axe-core's rule reads it)",
        labelled(() => graphs),
      );
      // The make corpus holds the largest real export (195 modules).
      if (corpus === 'make')
        for (const layout of ['auto', 'computed'] as const)
          it(
            `draws every module of the largest blueprint once, no two circles overlapping, all inside the viewBox (${layout} layout)`,
            drawsLarge(() => [...graphs].sort((a, b) => b.graph.modules.length - a.graph.modules.length)[0]!, layout),
          );
    },
  );

  describe('a generated blueprint of 210 modules on its canvas positions', () => {
    const large = { file: 'largeBlueprint()', graph: graphOf(largeBlueprint()) };
    it('keeps the canvas layout', () => assert.equal(layoutScenario(large.graph).source, 'canvas'));
    it('is spaced and labelled', () => {
      spaced(() => [large])();
      labelled(() => [large])();
    });
    for (const layout of ['auto', 'computed'] as const)
      it(
        `draws every module once, no two circles overlapping, all inside the viewBox (${layout} layout)`,
        drawsLarge(() => large, layout),
      );
  });
});
