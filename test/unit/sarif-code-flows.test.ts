/**
 * SARIF code flows (issue 32): a finding with an evidence path becomes a result with
 * `codeFlows[0].threadFlows[0].locations` (SARIF 2.1.0 §3.36-3.38), one location per module of the
 * path at its `module` line (the sink at the result's own location), with the step's note as its
 * message; the risk-model row is in the result's `properties.risk`; the log stays valid against the
 * SARIF 2.1.0 schema.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Policy } from '../../src/engine/index.js';
import type { WaivedResult } from '../../src/cli/scan/waivers.js';
import { POLICY_BY_CODE, evaluateBlueprint } from '../../src/engine/index.js';
import { formatSarif } from '../../src/cli/scan/format-sarif.js';
import { locateScan } from '../../src/cli/scan/locate.js';
import { assertSarif } from '../helpers/sarif-schema.js';
import { bp, fakeToken, m } from '../helpers/blueprints.js';

/** The parts of a SARIF result this test reads. */
interface Location {
  readonly physicalLocation: { readonly region: { readonly startLine: number } };
  readonly logicalLocations: readonly { readonly fullyQualifiedName: string }[];
  readonly message?: { readonly text: string };
}
interface Result {
  readonly ruleId: string;
  readonly locations: readonly Location[];
  readonly codeFlows?: readonly {
    readonly threadFlows: readonly {
      readonly locations: readonly { readonly location: Location; readonly importance: string }[];
    }[];
  }[];
  readonly properties: Record<string, unknown>;
  readonly relatedLocations?: readonly (Location & { readonly id: number })[];
}

/** SEC-7 with a risk row on each finding (the row itself is the risk model's; this one is a test double). */
const SEC_7_RISK: Policy = {
  ...POLICY_BY_CODE.get('SEC-7')!,
  code: 'ORG-7',
  evaluate(analysis, params) {
    const outcome = POLICY_BY_CODE.get('SEC-7')!.evaluate(analysis, params);
    if (!outcome) return null;
    const risk = {
      id: 'R4',
      title: 'Code runs on input anyone can send',
      severity: 'high' as const,
      trust: 'public-webhook' as const,
    };
    return { ...outcome, findings: outcome.findings.map((f) => ({ ...f, risk })) };
  },
};

function sarifOf(
  blueprint: unknown,
  extraPolicies: readonly Policy[] = [],
): { text: string; results: Result[]; log: unknown } {
  const text = JSON.stringify(blueprint, null, 2);
  const r = evaluateBlueprint(blueprint, { scenarioId: 'flow.json', extraPolicies });
  assert.ok(r.ok);
  const located = locateScan(text, blueprint, r.evaluation);
  const file: WaivedResult = {
    file: 'flow.json',
    kind: 'evaluated',
    evaluation: r.evaluation,
    locations: located.findings,
    moduleLocations: located.modules,
    placeLocations: located.places,
  };
  const log = JSON.parse(formatSarif([file], { version: '0.0.0-test', cwd: process.cwd() })) as {
    runs: { results: Result[] }[];
  };
  return { text, results: log.runs[0]!.results, log };
}

const blueprint = bp([
  m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
  m(2, 'util:SetVariables', { mapper: { variables: [{ name: 'src', value: '{{1.script}}' }] } }),
  m(3, 'code:ExecuteCode', { mapper: { code: 'return input', input: '{{2.src}}' } }),
]);

describe('SARIF code flows', () => {
  it('gives a finding with an evidence path a code flow through its modules, at their lines, valid SARIF 2.1.0', () => {
    const { text, results, log } = sarifOf(blueprint, [SEC_7_RISK]);
    assertSarif(log);
    const lines = text.split('\n');
    for (const code of ['SEC-7', 'ORG-7']) {
      const result = results.find((r) => r.ruleId === code)!;
      assert.ok(result, code);
      assert.equal(result.codeFlows?.length, 1);
      const flow = result.codeFlows[0]!.threadFlows[0]!.locations;
      assert.deepEqual(
        flow.map((l) => l.location.logicalLocations[0]!.fullyQualifiedName),
        ['/flow/0/module', '/flow/1/module', result.locations[0]!.logicalLocations[0]!.fullyQualifiedName],
      );
      assert.deepEqual(
        flow.map((l) => l.importance),
        ['essential', 'important', 'essential'],
      );
      assert.match(
        lines[flow[0]!.location.physicalLocation.region.startLine - 1]!,
        /"module": "gateway:CustomWebHook"/,
      );
      assert.match(lines[flow[1]!.location.physicalLocation.region.startLine - 1]!, /"module": "util:SetVariables"/);
      assert.deepEqual(flow[2]!.location.physicalLocation, result.locations[0]!.physicalLocation);
      assert.match(flow[0]!.location.message!.text, /^Source: module 1 "Gateway · Custom Web Hook": /);
      assert.equal(flow[1]!.location.message!.text, 'Step: module 2 "Util · Set Variables": maps `{{1.script}}`');
      assert.equal(flow[2]!.location.message!.text, 'Sink: module 3 "Code · Execute Code": custom code');
    }
  });

  it("puts the risk-model row in the result's properties, only where the finding has one", () => {
    const { results } = sarifOf(blueprint, [SEC_7_RISK]);
    assert.deepEqual(results.find((r) => r.ruleId === 'ORG-7')!.properties['risk'], {
      row: 'R4',
      title: 'Code runs on input anyone can send',
      severity: 'high',
      trust: 'public-webhook',
    });
    assert.equal(results.find((r) => r.ruleId === 'SEC-7')!.properties['risk'], undefined);
  });

  it('gives no code flow to a finding without a path', () => {
    const { results, log } = sarifOf(bp([m(1, 'http:ActionSendData', { mapper: { url: 'http://example.com' } })]));
    assertSarif(log);
    assert.ok(results.length > 0);
    for (const r of results) assert.equal(r.codeFlows, undefined, r.ruleId);
  });

  it('gives a secret copied into three modules one result with the two other places as related locations, at their lines', () => {
    const token = `EAA${fakeToken(402, 120)}`;
    const send = (id: number) =>
      m(id, 'http:ActionSendData', {
        version: 3,
        mapper: {
          method: 'post',
          url: 'https://graph.example.org/v1/messages',
          headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
        },
      });
    const copied = bp([m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }), send(2), send(3), send(4)]);
    const { text, results, log } = sarifOf(copied);
    assertSarif(log);
    const sec1 = results.filter((r) => r.ruleId === 'SEC-1');
    assert.equal(sec1.length, 1);
    const related = sec1[0]!.relatedLocations ?? [];
    assert.deepEqual(
      related.map((l) => [l.id, l.logicalLocations[0]!.fullyQualifiedName, l.message?.text]),
      [
        [1, '/flow/2/mapper/headers/0/value', 'also in module 3'],
        [2, '/flow/3/mapper/headers/0/value', 'also in module 4'],
      ],
    );
    const lines = text.split('\n');
    for (const l of related) assert.match(lines[l.physicalLocation.region.startLine - 1]!, /Bearer EAA/);
  });
});
