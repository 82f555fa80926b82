/**
 * `gov scan`'s SARIF source map (src/cli/scan/source-map.ts, locate.ts): every region found must
 * hold exactly the value its pointer designates (checked by cutting the region out of the text and
 * parsing it), in pretty, minified and CRLF texts; module ids map to the pointers the engine uses.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint } from '../../src/engine/index.js';
import { locateFindings } from '../../src/cli/scan/locate.js';
import { modulePointers, pointerTokens, regionsOf, type Region } from '../../src/cli/scan/source-map.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';
import { corpusFacts, corpusText, eachCorpus } from '../helpers/corpus.js';

/** Every JSON Pointer of `value` (RFC 6901 escaping), the document's own ('') first. */
function allPointers(value: unknown, at = '', out: string[] = []): string[] {
  out.push(at);
  if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value))
      allPointers(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  return out;
}

function valueAt(doc: unknown, pointer: string): unknown {
  let v = doc;
  for (const t of pointerTokens(pointer)) v = (v as Record<string, unknown>)[t];
  return v;
}

/** The offset of a 1-based line and column, computed here independently of the scanner. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

function cut(text: string, r: Region): string {
  return text.slice(offsetOf(text, r.startLine, r.startColumn), offsetOf(text, r.endLine, r.endColumn));
}

function assertEveryRegionHoldsItsValue(text: string): number {
  const doc = JSON.parse(text) as unknown;
  const pointers = allPointers(doc);
  const regions = regionsOf(text, pointers);
  assert.equal(regions.size, pointers.length, 'every pointer found');
  for (const p of pointers) assert.deepEqual(JSON.parse(cut(text, regions.get(p)!)), valueAt(doc, p), p);
  return pointers.length;
}

describe('regionsOf', () => {
  const fixture = {
    name: 'a "quoted" ~/name',
    flow: [
      {
        id: 1,
        module: 'util:SetVariable2',
        mapper: { 'a/b': 'x\\', 'c~d': ['}', ']', '"{["', { e: null }], n: -1.5e3 },
      },
      { id: 2, module: 'builtin:BasicRouter', routes: [{ flow: [{ id: 3, module: 'json:ParseJSON' }] }, { flow: [] }] },
    ],
    metadata: { note: 'ünïcödé 🙂 text', empty: {}, list: [] },
  };

  it('finds each value of a pretty-printed, a minified and a CRLF text at exactly its place', () => {
    const pretty = JSON.stringify(fixture, null, 2);
    assert.ok(assertEveryRegionHoldsItsValue(pretty) > 20);
    assertEveryRegionHoldsItsValue(JSON.stringify(fixture));
    assertEveryRegionHoldsItsValue(pretty.replace(/\n/g, '\r\n'));
    assertEveryRegionHoldsItsValue(JSON.stringify(fixture, null, '\t'));
  });

  eachCorpus('a corpus', ['fixtures', 'make'], (corpus, { it }) => {
    it('finds each value of each blueprint, as exported', () => {
      // The real corpus's exports run to 2 MB and this check is quadratic: its first export stands for the rest.
      for (const f of corpusFacts(corpus).slice(0, corpus === 'fixtures' ? undefined : 1)) {
        const text = corpusText(f.file, corpus).replace(/^\uFEFF/, '');
        assert.ok(assertEveryRegionHoldsItsValue(text) > 50, f.file);
      }
    });
  });

  it('gives lines and UTF-16 columns, the end one past the value, and leaves absent pointers out', () => {
    const text = '{\n  "a": "é🙂",\n  "b": [1, {"c": true}]\n}';
    const regions = regionsOf(text, ['/a', '/b/1/c', '/b/1', '/b/2', '/nope', '/a/x']);
    assert.deepEqual(regions.get('/a'), { startLine: 2, startColumn: 8, endLine: 2, endColumn: 13 });
    assert.deepEqual(regions.get('/b/1/c'), { startLine: 3, startColumn: 18, endLine: 3, endColumn: 22 });
    assert.deepEqual(regions.get('/b/1'), { startLine: 3, startColumn: 12, endLine: 3, endColumn: 23 });
    assert.deepEqual([...regions.keys()].sort(), ['/a', '/b/1', '/b/1/c']);
  });
});

describe('modulePointers', () => {
  it("maps module ids to the engine's pointers through onerror handlers and router routes, unnumbered modules in the engine's order", () => {
    const blueprint = {
      flow: [
        { id: 1, module: 'http:MakeRequest', onerror: [{ id: 9, module: 'builtin:Break' }] },
        {
          id: 2,
          module: 'builtin:BasicRouter',
          routes: [{ flow: [{ id: null, module: 'placeholder:Placeholder' }] }, { flow: [{ id: 4, module: 'x:y' }] }],
        },
        { id: null, module: 'placeholder:Placeholder' },
      ],
    };
    assert.deepEqual(
      [...modulePointers(blueprint)],
      [
        ['1', '/flow/0'],
        ['9', '/flow/0/onerror/0'],
        ['2', '/flow/1'],
        ['unnumbered-1', '/flow/1/routes/0/flow/0'],
        ['4', '/flow/1/routes/1/flow/0'],
        ['unnumbered-2', '/flow/2'],
      ],
    );
  });
});

describe('locateFindings', () => {
  it('locates every finding of an evaluation: evidence at its value, a module finding at its "module" line', () => {
    const blueprint = bp([
      m(1, 'http:MakeRequest', {
        version: 4,
        mapper: {
          url: 'https://api.example.com',
          headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(7, 36)}` }],
        },
        onerror: breakHandler(9),
      }),
      m(2, 'google-sheets:addRow'),
    ]);
    const text = JSON.stringify(blueprint, null, 2);
    const r = evaluateBlueprint(blueprint, { scenarioId: 'x.json' });
    assert.ok(r.ok);
    const located = locateFindings(text, blueprint, r.evaluation);
    const findings = r.evaluation.violations.flatMap((v): { fingerprint: string; evidence?: unknown }[] =>
      v.failing_modules.length > 0 ? [...v.failing_modules] : [v],
    );
    assert.ok(findings.length >= 2);
    assert.equal(located.size, findings.length, 'one location per finding');
    const lines = text.split('\n');
    const sec1 = r.evaluation.violations.find((v) => v.policy === 'SEC-1')!.failing_modules[0]!;
    const at = located.get(sec1.fingerprint)!;
    assert.equal(at.pointer, sec1.evidence!.pointer);
    assert.match(lines[at.region.startLine - 1]!, /"value": "Bearer ghp_/);
    for (const f of findings) {
      const { pointer, region } = located.get(f.fingerprint)!;
      if (!f.evidence) assert.match(pointer, /^(\/flow\/\d+(\/(onerror|routes\/\d+\/flow)\/\d+)*\/module)?$/, pointer);
      assert.ok(region.startLine >= 1 && region.endLine >= region.startLine);
    }
  });
});
