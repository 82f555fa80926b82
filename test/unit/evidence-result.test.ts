/**
 * A finding's evidence in the result (issue 32): `evidence.path` (the policy's path completed by the
 * engine, with module names and notes) and `evidence.risk` (the risk-model row, snake_case), both
 * additive; fingerprints unchanged; kept through the unreachable cap and the organization's
 * severity overrides; filled by the data-flow policies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  evaluateBlueprint,
  type FailingModule,
  type GovernanceSettingsBody,
  type Policy,
  type ScenarioEvaluation,
} from '../../src/engine/index.js';
import type { Finding } from '../../src/engine/policies/types.js';
import type { Audience, Impact, RiskRow, Sensitivity, SourceTrust } from '../../src/engine/risk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { bp, m, type Mod } from '../helpers/blueprints.js';

const ROW: RiskRow = {
  id: 'R9',
  title: 'Untrusted input reaches an action on a third party',
  severity: 'high',
  trust: 'public-webhook',
  impact: 'send',
};

/** A custom policy reporting module `sink` with whatever extra fields `extra` gives. */
function policy(sink: string, extra: Partial<Finding>): Policy {
  return {
    code: 'ORG-9',
    title: 'Test flow',
    category: 'SEC',
    severity: 'medium',
    description: 'Test.',
    rationale: 'Test.',
    compliance_frameworks: [],
    examples: { avoid: 'a', prefer: 'b' },
    remediation: { effort: 'low', steps: () => ['Fix it.'] },
    evaluate: () => ({
      status: 'fail',
      findings: [{ moduleId: sink, reason: 'sends webhook data', ...extra }],
      summary: 'flow',
    }),
  };
}

function evaluate(blueprint: unknown, extra: Policy, settings?: GovernanceSettingsBody): ScenarioEvaluation {
  const r = evaluateBlueprint(blueprint, {
    scenarioId: 's1',
    include: ['ORG-9'],
    extraPolicies: [extra],
    ...(settings ? { settings } : {}),
  });
  assert.ok(r.ok);
  return r.evaluation;
}
const finding = (ev: ScenarioEvaluation, code = 'ORG-9'): FailingModule =>
  ev.violations.find((v) => v.policy === code)!.failing_modules[0]!;

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const vars = m(2, 'util:SetVariables', { mapper: { variables: [{ name: 'to', value: '{{1.email}}' }] } });
const send = (extra: Mod = {}) =>
  m(3, 'http:ActionSendData', {
    mapper: { url: 'https://api.example.com/x', method: 'post', data: '{{2.to}}' },
    ...extra,
  });
const blueprint = bp([hook, vars, send()]);

describe('evidence path and risk row in the result', () => {
  it("completes the policy's source and sink into the whole path, with module names and a note on every step", () => {
    const f = finding(
      evaluate(
        blueprint,
        policy('3', {
          evidence: { pointer: '/flow/2/mapper/data' },
          path: [
            { moduleId: '1', role: 'source', note: 'the caller' },
            { moduleId: '3', role: 'sink', note: 'posts it' },
          ],
          risk: ROW,
        }),
      ),
    );
    assert.deepEqual(f.evidence, {
      pointer: '/flow/2/mapper/data',
      path: [
        { module_id: '1', module_name: 'Gateway · Custom Web Hook', role: 'source', note: 'the caller' },
        { module_id: '2', module_name: 'Util · Set Variables', role: 'step', note: 'maps `{{1.email}}`' },
        { module_id: '3', module_name: 'Http · Action Send Data', role: 'sink', note: 'posts it' },
      ],
      risk: {
        row: 'R9',
        title: 'Untrusted input reaches an action on a third party',
        severity: 'high',
        trust: 'public-webhook',
        impact: 'send',
      },
    });
  });

  it('keeps fingerprints and the rest of the finding as they are without path and risk', () => {
    for (const evidence of [{ pointer: '/flow/2/mapper/data', value: '{{2.to}}' }, undefined]) {
      const base: Partial<Finding> = evidence ? { evidence } : {};
      const plain = finding(evaluate(blueprint, policy('3', base)));
      const rich = finding(
        evaluate(
          blueprint,
          policy('3', {
            ...base,
            path: [
              { moduleId: '1', role: 'source' },
              { moduleId: '3', role: 'sink' },
            ],
            risk: ROW,
          }),
        ),
      );
      assert.equal(rich.fingerprint, plain.fingerprint);
      const { evidence: richEvidence, ...richRest } = rich;
      const { evidence: plainEvidence, ...plainRest } = plain;
      assert.deepEqual(richRest, plainRest);
      // Without the policy's pointer, the evidence points at the module itself; with it, pointer and value are kept.
      assert.equal(richEvidence!.pointer, plainEvidence?.pointer ?? '/flow/2');
      assert.equal(richEvidence!.value, plainEvidence?.value);
    }
  });

  it('adds no evidence fields to a finding without a path or risk row', () => {
    const f = finding(evaluate(blueprint, policy('3', { evidence: { pointer: '/flow/2' } })));
    assert.deepEqual(f.evidence, { pointer: '/flow/2' });
  });

  it('keeps path and risk row through the unreachable cap and an organization override', () => {
    const rich = policy('3', {
      path: [
        { moduleId: '1', role: 'source' },
        { moduleId: '3', role: 'sink' },
      ],
      risk: ROW,
    });
    const never = { name: 'never', conditions: [[{ a: 'x', b: 'y', o: 'text:equal' }]] };
    const capped = finding(evaluate(bp([hook, vars, send({ filter: never })]), rich));
    assert.equal(capped.severity, 'low');
    assert.equal(
      capped.evidence!.risk!.severity,
      'high',
      "the row still says what the model set; the reason says why it's capped",
    );
    assert.deepEqual(
      capped.evidence!.path!.map((s) => s.module_id),
      ['1', '2', '3'],
    );
    const overridden = finding(
      evaluate(blueprint, rich, {
        disabled_policies: [],
        severity_overrides: { 'ORG-9': 'info' },
        parameters: {},
      }),
    );
    assert.equal(overridden.severity, 'info');
    assert.equal(overridden.evidence!.risk!.row, 'R9');
    assert.equal(overridden.evidence!.path!.length, 3);
  });
});

describe('data-flow policies give evidence paths', () => {
  it('SEC-7: from the webhook through the variable to the code module', () => {
    const code = m(3, 'code:ExecuteCode', { mapper: { code: 'return input', input: '{{2.to}}' } });
    const r = evaluateBlueprint(bp([hook, vars, code]), { scenarioId: 's1', include: ['SEC-7'] });
    assert.ok(r.ok);
    const f = finding(r.evaluation, 'SEC-7');
    assert.deepEqual(
      f.evidence!.path!.map((s) => [s.module_id, s.role]),
      [
        ['1', 'source'],
        ['2', 'step'],
        ['3', 'sink'],
      ],
    );
    assert.equal(f.evidence!.path![2]!.note, 'custom code');
  });

  it('SEC-6: from the webhook through the variable to the request whose host it chooses', () => {
    const fetch = m(3, 'http:ActionSendData', { mapper: { url: '{{2.to}}', method: 'get' } });
    const r = evaluateBlueprint(bp([hook, vars, fetch]), { scenarioId: 's1', include: ['SEC-6'] });
    assert.ok(r.ok);
    const path = finding(r.evaluation, 'SEC-6').evidence!.path!;
    assert.deepEqual(
      path.map((s) => s.module_id),
      ['1', '2', '3'],
    );
    assert.match(path[2]!.note, /calls the address/);
  });
});

describe('result schema of the evidence (OpenAPI FailingModule)', () => {
  const doc = openApiDocument() as {
    components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...doc, $id: 'https://gov.local/openapi.json' });
  const validate = ajv.getSchema('https://gov.local/openapi.json#/components/schemas/FailingModule')!;

  it('accepts a finding with a path and every risk dimension, and refuses a step without a module name', () => {
    const f = finding(
      evaluate(
        blueprint,
        policy('3', {
          path: [
            { moduleId: '1', role: 'source' },
            { moduleId: '3', role: 'sink' },
          ],
          risk: { ...ROW, audience: 'third-party', sensitivity: 'personal' },
        }),
      ),
    );
    assert.ok(validate(f), JSON.stringify(validate.errors));
    const broken = { ...f, evidence: { ...f.evidence!, path: [{ module_id: '1', role: 'source', note: '' }] } };
    assert.equal(validate(broken), false);
  });

  it('lists every value of the risk dimensions of the engine', () => {
    // Records keyed by the engine's unions: a value added there fails to compile here until it is listed.
    const audience: Record<Audience, true> = { owner: true, sender: true, 'third-party': true, public: true };
    const trust: Record<SourceTrust, true> = {
      'public-webhook': true,
      'inbound-message': true,
      'fetched-page': true,
      'ai-output': true,
      'internal-record': true,
      constant: true,
    };
    const sensitivity: Record<Sensitivity, true> = {
      'special-category': true,
      personal: true,
      credential: true,
      none: true,
    };
    const impact: Record<Impact, true> = {
      read: true,
      'write-own': true,
      send: true,
      spend: true,
      'change-access': true,
      delete: true,
    };
    const row = doc.components.schemas['RiskRow']!.properties;
    for (const [name, values] of Object.entries({ audience, trust, sensitivity, impact }))
      assert.deepEqual([...row[name]!.enum!].sort(), Object.keys(values).sort(), name);
  });
});
