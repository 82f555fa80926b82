/**
 * Evidence paths (issue 32, src/engine/risk/path.ts): the chain of modules that carries data from a
 * source to a sink along mapping references, shortest, through modules that pass data on when there
 * is such a chain, with a field preference, bounded, and the two ends alone when nothing links them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m, type Mod } from '../helpers/blueprints.js';
import { Analysis } from '../../src/engine/analysis.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { SEARCH_BUDGET, completePath, evidencePath } from '../../src/engine/risk/path.js';

function analysisOf(flow: Mod[]): Analysis {
  const parsed = parseBlueprint(bp(flow));
  assert.ok(parsed.ok);
  return new Analysis(parsed.graph);
}

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const setVar = (id: number, value: string) =>
  m(id, 'util:SetVariables', { mapper: { variables: [{ name: 'v', value }], scope: 'roundtrip' } });
const json = (id: number, value: string) => m(id, 'json:CreateJSON', { mapper: { text: value } });
const post = (id: number, data: string) =>
  m(id, 'http:ActionSendData', { mapper: { url: 'https://api.example.com/in', method: 'post', data } });
const row = (id: number, value: string) => m(id, 'google-sheets:addRow', { mapper: { values: { 0: value } } });

const ids = (path: readonly { moduleId: string }[]) => path.map((s) => s.moduleId);

describe('evidencePath', () => {
  it('finds the chain of mapping references from the source to the sink, with roles and notes', () => {
    const a = analysisOf([hook, setVar(2, '{{1.email}}'), json(3, '{{2.v}}'), post(4, '{{3.json}}')]);
    const path = evidencePath(a, '1', '4', { sink: 'sends it out' });
    assert.deepEqual(ids(path), ['1', '2', '3', '4']);
    assert.deepEqual(
      path.map((s) => s.role),
      ['source', 'step', 'step', 'sink'],
    );
    assert.match(path[0]!.note!, /webhook/i, 'the source is noted by its kind');
    assert.equal(path[1]!.note, 'maps `{{1.email}}`');
    assert.equal(path[2]!.note, 'maps `{{2.v}}`');
    assert.equal(path[3]!.note, 'sends it out');
  });

  it('takes the shortest chain when several lead to the sink', () => {
    const a = analysisOf([
      hook,
      setVar(2, '{{1.email}}'),
      json(3, '{{2.v}}'),
      json(5, '{{1.email}}'),
      post(4, '{{3.json}} {{5.json}}'),
    ]);
    assert.deepEqual(ids(evidencePath(a, '1', '4')), ['1', '5', '4']);
  });

  it('prefers modules that pass data on, and passes through any module only when no such chain exists', () => {
    // 1 → 2 (an HTTP call: its output is its response) → 4 is shorter than 1 → 3 → 5 → 4 through transforms.
    const carried = analysisOf([
      hook,
      post(2, '{{1.email}}'),
      setVar(3, '{{1.email}}'),
      json(5, '{{3.v}}'),
      row(4, '{{2.data}} {{5.json}}'),
    ]);
    assert.deepEqual(ids(evidencePath(carried, '1', '4')), ['1', '3', '5', '4']);
    const only = analysisOf([hook, post(2, '{{1.email}}'), row(4, '{{2.data}}')]);
    assert.deepEqual(ids(evidencePath(only, '1', '4')), ['1', '2', '4']);
  });

  it('prefers a first hop that maps the field the data leaves by', () => {
    const flow = [hook, setVar(2, '{{1.name}}'), setVar(3, '{{1.health}}'), post(4, '{{2.v}} {{3.v}}')];
    assert.deepEqual(ids(evidencePath(analysisOf(flow), '1', '4')), ['1', '2', '4']);
    const path = evidencePath(analysisOf(flow), '1', '4', { field: 'health' });
    assert.deepEqual(ids(path), ['1', '3', '4']);
    assert.equal(path[1]!.note, 'maps `{{1.health}}`');
    // A field no module maps: the preference is dropped, a chain is still found.
    assert.deepEqual(ids(evidencePath(analysisOf(flow), '1', '4', { field: 'none' })), ['1', '2', '4']);
  });

  it('falls back to the source and the sink when no chain links them, and never throws on unknown ids', () => {
    const a = analysisOf([hook, setVar(2, 'fixed'), post(4, '{{2.v}}')]);
    const path = evidencePath(a, '1', '4');
    assert.deepEqual(ids(path), ['1', '4']);
    assert.equal(path[1]!.note, 'receives data of module 1');
    assert.deepEqual(ids(evidencePath(a, '99', '4')), ['99', '4']);
    assert.deepEqual(ids(evidencePath(a, '4', '4')), ['4'], 'a source that is its own sink is one step');
  });

  it("does not take an error route's read of a failure (`{{2.error.message}}`) as data", () => {
    const failing = m(2, 'http:ActionSendData', {
      mapper: { url: 'https://api.example.com', method: 'get', data: '{{1.email}}' },
      onerror: [row(3, '{{2.error.message}}')],
    });
    const a = analysisOf([hook, failing]);
    assert.deepEqual(ids(evidencePath(a, '2', '3')), ['2', '3']);
    assert.equal(evidencePath(a, '2', '3')[1]!.note, 'receives data of module 2');
  });

  it('reads one cached search per source: 500 paths on a 500-module chain', () => {
    const a = analysisOf([hook, ...Array.from({ length: 500 }, (_, i) => json(i + 2, `{{${i + 1}.json}}`))]);
    assert.equal(evidencePath(a, '1', '501').length, 501);
    let steps = 0;
    for (let i = 2; i <= 501; i++) steps += evidencePath(a, '1', String(i)).length;
    assert.equal(steps, (500 * 503) / 2, 'each path is whole');
  });

  it('is bounded: past SEARCH_BUDGET edges examined in one evaluation, paths fall back to their two ends', () => {
    // 1,000 modules in a chain, each a source of its own search to the last: 500,000 edges without the budget.
    const n = 1000;
    const a = analysisOf([hook, ...Array.from({ length: n - 1 }, (_, i) => json(i + 2, `{{${i + 1}.json}}`))]);
    let whole = 0;
    let fallback = 0;
    // Sources 1 .. n - 2 (the last one's whole path would have two steps, like the fallback).
    for (let from = 1; from < n - 1; from++) {
      const path = evidencePath(a, String(from), String(n));
      if (path.length === n - from + 1) whole++;
      else if (path.length === 2) fallback++;
    }
    assert.equal(whole + fallback, n - 2, 'every path is whole or the fallback');
    assert.ok(whole > 0 && fallback > 0, `${whole} whole, ${fallback} fallback`);
    // Edges examined: the whole searches from module k cost n - k each, so they stop within the budget.
    const examined = Array.from({ length: whole }, (_, k) => n - 1 - k).reduce((x, y) => x + y, 0);
    assert.ok(examined <= SEARCH_BUDGET, `${examined} edges`);
  });

  it('on a dense scenario (every module maps every earlier one) finds the direct edge', () => {
    const flow: Mod[] = [hook];
    for (let i = 2; i <= 120; i++)
      flow.push(json(i, Array.from({ length: i - 1 }, (_, k) => `{{${k + 1}.json}}`).join(' ')));
    const a = analysisOf(flow);
    assert.deepEqual(ids(evidencePath(a, '1', '120')), ['1', '120']);
    assert.deepEqual(ids(evidencePath(a, '60', '120')), ['60', '120']);
  });
});

describe('completePath', () => {
  const a = analysisOf([
    hook,
    setVar(2, '{{1.email}}'),
    json(3, '{{2.v}}'),
    post(4, '{{3.json}}'),
    row(5, '{{4.data}}'),
  ]);

  it("fills in the modules between a policy's source and sink, keeping the policy's notes", () => {
    const path = completePath(a, [
      { moduleId: '1', role: 'source', note: 'the caller' },
      { moduleId: '4', role: 'sink' },
    ]);
    assert.deepEqual(ids(path), ['1', '2', '3', '4']);
    assert.deepEqual(
      path.map((s) => [s.role, s.note]),
      [
        ['source', 'the caller'],
        ['step', 'maps `{{1.email}}`'],
        ['step', 'maps `{{2.v}}`'],
        ['sink', 'maps `{{3.json}}`'],
      ],
    );
  });

  it('leaves directly connected steps alone, fills each gap of a longer path, and drops unknown or repeated modules', () => {
    assert.deepEqual(
      ids(
        completePath(a, [
          { moduleId: '1', role: 'source' },
          { moduleId: '2', role: 'step', note: 'sets it' },
          { moduleId: '2', role: 'step' },
          { moduleId: '77', role: 'step' },
          { moduleId: '5', role: 'sink' },
        ]),
      ),
      ['1', '2', '3', '4', '5'],
    );
    assert.deepEqual(completePath(a, []), []);
    assert.deepEqual(completePath(a, [{ moduleId: '77', role: 'sink' }]), []);
  });
});
