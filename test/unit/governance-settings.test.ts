/**
 * Issue 17 organization settings in the engine: disabled policies, severity overrides, extra
 * (custom) policies, parameter declarations, `validateSettings` and `effectiveCatalog`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  POLICIES,
  effectiveCatalog,
  evaluateBlueprint,
  validateSettings,
  type GovernanceSettingsBody,
  type Policy,
  type ScenarioEvaluation,
} from '../../src/engine/index.js';
import { bp, m } from '../helpers/blueprints.js';

const BUILTIN = new Set(POLICIES.map((p) => p.code));
const settings = (s: Partial<GovernanceSettingsBody>): GovernanceSettingsBody => ({
  disabled_policies: [],
  severity_overrides: {},
  parameters: {},
  ...s,
});
function evaluate(
  blueprint: unknown,
  extra: Partial<Parameters<typeof evaluateBlueprint>[1]> = {},
): ScenarioEvaluation {
  const r = evaluateBlueprint(blueprint, { scenarioId: 's1', ...extra });
  assert.ok(r.ok);
  assert.deepEqual(r.evaluation.policy_errors, []);
  return r.evaluation;
}

/** TLS verification off: SEC-4 (critical) on module 1. */
const insecure = bp([
  m(1, 'http:ActionSendData', { mapper: { url: 'https://api.example.com/x', rejectUnauthorized: false } }),
]);

/** A custom rule: every Slack module, medium. */
const ORG_1: Policy = {
  code: 'ORG-1',
  title: 'No Slack',
  category: 'SEC',
  severity: 'medium',
  description: 'Slack is not used for customer data.',
  rationale: 'Organization rule.',
  compliance_frameworks: [],
  examples: { avoid: 'slack', prefer: 'teams' },
  remediation: { effort: 'low', steps: () => ['Use Teams.'] },
  evaluate: (analysis) => {
    const findings = analysis.graph.modules
      .filter((x) => x.app === 'slack')
      .map((x) => ({ moduleId: x.id, reason: 'uses Slack' }));
    return findings.length === 0 ? null : { status: 'fail', findings, summary: 'Slack used' };
  },
};

describe('parameter declarations', () => {
  it('declares each parameter name in exactly one policy of the catalog', () => {
    const names = POLICIES.flatMap((p) => (p.parameters ?? []).map((x) => x.name));
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
    );
    assert.deepEqual([...names].sort(), [
      'allowed_apps',
      'allowed_http_domains',
      'allowed_zones',
      'denied_apps',
      'max_modules',
    ]);
  });
  it('gives every parameter a description and a default within its own bounds', () => {
    for (const p of POLICIES.flatMap((x) => x.parameters ?? [])) {
      assert.ok(p.description.length > 20, p.name);
      const body = { parameters: { [p.name]: p.default } };
      assert.deepEqual(validateSettings(body, BUILTIN), { ok: true, settings: settings(body) }, p.name);
    }
  });
});

describe('evaluateBlueprint with settings', () => {
  it('leaves a disabled policy out of the violations and evaluated_codes', () => {
    const before = evaluate(insecure);
    assert.ok(before.violations.some((v) => v.policy === 'SEC-4'));
    const after = evaluate(insecure, { settings: settings({ disabled_policies: ['SEC-4'] }) });
    assert.ok(!after.violations.some((v) => v.policy === 'SEC-4'));
    assert.ok(!after.evaluated_codes.includes('SEC-4'));
    assert.equal(after.evaluated_codes.length, before.evaluated_codes.length - 1);
    assert.equal(after.passing_count + after.failing_count, after.evaluated_codes.length);
  });
  it('applies a severity override to the violation, each finding, the badge, the score and the critical count', () => {
    const before = evaluate(insecure);
    const after = evaluate(insecure, { settings: settings({ severity_overrides: { 'SEC-4': 'low' } }) });
    const v = after.violations.find((x) => x.policy === 'SEC-4')!;
    assert.equal(before.violations.find((x) => x.policy === 'SEC-4')!.severity, 'critical');
    assert.deepEqual([v.severity, v.failing_modules[0]!.severity], ['low', 'low']);
    assert.equal(after.critical, before.critical - 1);
    assert.ok(after.score > before.score, `${after.score} > ${before.score}`);
    assert.equal(after.remediation['SEC-4']!.severity, 'low');
    const badge = (e: ScenarioEvaluation) => e.module_summary.find((x) => x.module_id === '1')!.badge;
    assert.equal(badge(before), 'critical');
    assert.notEqual(badge(after), 'critical');
  });
  it('raises a scenario-level outcome too: ARC-1 overridden to high', () => {
    const big = bp(Array.from({ length: 51 }, (_, i) => m(i + 1, 'util:SetVariable2')));
    const v = evaluate(big, { settings: settings({ severity_overrides: { 'ARC-1': 'high' } }) }).violations;
    assert.deepEqual(
      v.filter((x) => x.policy === 'ARC-1').map((x) => [x.status, x.severity]),
      [['warn', 'high']],
    );
  });
  it('keeps a finding on a route that cannot run at low, override or not', () => {
    const dead = bp([
      m(1, 'builtin:BasicRouter', {
        routes: [
          { flow: [m(2, 'util:SetVariable2')] },
          {
            disabled: true,
            flow: [m(3, 'http:ActionSendData', { mapper: { url: 'https://x.test/', rejectUnauthorized: false } })],
          },
        ],
      }),
    ]);
    const v = evaluate(dead, { settings: settings({ severity_overrides: { 'SEC-4': 'critical' } }) });
    assert.equal(v.violations.find((x) => x.policy === 'SEC-4')!.severity, 'low');
  });
  it('runs extra policies after the catalog, under the disabled list and the overrides', () => {
    const slack = bp([m(1, 'slack:CreateMessage', { mapper: { channel: 'C1', text: 'hi' } })]);
    const plain = evaluate(slack, { extraPolicies: [ORG_1] });
    assert.equal(plain.evaluated_codes.at(-1), 'ORG-1');
    assert.equal(plain.violations.find((x) => x.policy === 'ORG-1')!.severity, 'medium');
    const raised = evaluate(slack, {
      extraPolicies: [ORG_1],
      settings: settings({ severity_overrides: { 'ORG-1': 'critical' } }),
    });
    assert.equal(raised.violations.find((x) => x.policy === 'ORG-1')!.severity, 'critical');
    assert.equal(raised.critical, plain.critical + 1);
    const off = evaluate(slack, { extraPolicies: [ORG_1], settings: settings({ disabled_policies: ['ORG-1'] }) });
    assert.ok(!off.evaluated_codes.includes('ORG-1'));
    assert.ok(!off.violations.some((x) => x.policy === 'ORG-1'));
  });
  it('gives the same result with empty settings as without settings', () => {
    const a = evaluate(insecure);
    const b = evaluate(insecure, { settings: settings({}), extraPolicies: [] });
    assert.deepEqual(b, a);
  });
});

describe('validateSettings', () => {
  const full = {
    disabled_policies: ['ARC-5', 'ORG-2'],
    severity_overrides: { 'SEC-3': 'critical', 'ORG-2': 'info' },
    parameters: {
      max_modules: 60,
      allowed_zones: ['eu1', 'eu2.make.com'],
      allowed_apps: ['google-sheets', 'http:ActionSendData', 'app#courageousteams-614494:getOrder'],
      denied_apps: ['dropbox'],
      allowed_http_domains: ['api.example.com', '*.example.org'],
    },
  };
  const known = new Set([...BUILTIN, 'ORG-2']);
  const paths = (body: unknown) => {
    const r = validateSettings(body, known);
    assert.equal(r.ok, false, JSON.stringify(body));
    return r.ok ? [] : r.detail.map((d) => d.path).sort();
  };

  it('accepts a full valid body as given, and fills missing members with empty values', () => {
    assert.deepEqual(validateSettings(full, known), { ok: true, settings: full });
    assert.deepEqual(validateSettings({}, known), { ok: true, settings: settings({}) });
  });
  it('refuses a body that is not an object, and members it does not know', () => {
    assert.deepEqual(validateSettings(null, known), { ok: false, detail: [{ path: '/', message: 'must be object' }] });
    assert.deepEqual(paths({ ...full, waivers: [] }), ['/waivers']);
  });
  it('refuses unknown policy codes, in the disabled list and the overrides', () => {
    assert.deepEqual(validateSettings({ disabled_policies: ['ARC-5', 'ORG-9'] }, known), {
      ok: false,
      detail: [{ path: '/disabled_policies/1', message: 'unknown policy code ORG-9' }],
    });
    assert.deepEqual(paths({ severity_overrides: { 'SEC-99': 'low', 'not a code': 'low' } }), [
      '/severity_overrides/SEC-99',
      '/severity_overrides/not a code',
    ]);
  });
  it('refuses a severity outside the scale', () => {
    assert.deepEqual(validateSettings({ severity_overrides: { 'SEC-3': 'severe' } }, known), {
      ok: false,
      detail: [{ path: '/severity_overrides/SEC-3', message: 'must be one of critical, high, medium, low, info' }],
    });
  });
  it('refuses unknown parameters and values outside their declared bounds, each at its pointer', () => {
    assert.deepEqual(validateSettings({ parameters: { max_nodes: 3 } }, known), {
      ok: false,
      detail: [{ path: '/parameters/max_nodes', message: 'is not a parameter of any policy' }],
    });
    assert.deepEqual(paths({ parameters: { max_modules: 1 } }), ['/parameters/max_modules']);
    assert.deepEqual(paths({ parameters: { max_modules: 1001 } }), ['/parameters/max_modules']);
    assert.deepEqual(paths({ parameters: { max_modules: 12.5 } }), ['/parameters/max_modules']);
    assert.deepEqual(paths({ parameters: { allowed_zones: 'eu1' } }), ['/parameters/allowed_zones']);
    assert.deepEqual(paths({ parameters: { allowed_zones: ['eu1', 'EU 2'] } }), ['/parameters/allowed_zones/1']);
    assert.deepEqual(paths({ parameters: { allowed_http_domains: ['https://x.test/'] } }), [
      '/parameters/allowed_http_domains/0',
    ]);
    assert.deepEqual(paths({ parameters: { denied_apps: ['slack', 'slack'] } }), ['/parameters/denied_apps']);
    assert.deepEqual(paths({ parameters: { allowed_apps: Array.from({ length: 501 }, (_, i) => `app-${i}`) } }), [
      '/parameters/allowed_apps',
    ]);
  });
});

describe('effectiveCatalog', () => {
  it('lists the catalog as is without settings', () => {
    const all = effectiveCatalog(undefined, []);
    assert.deepEqual(
      all.map((p) => p.code),
      POLICIES.map((p) => p.code),
    );
    assert.ok(all.every((p) => p.enabled && p.source === 'builtin' && p.effective_severity === p.severity));
    assert.deepEqual(
      all.find((p) => p.code === 'ARC-1')!.parameters.map((x) => [x.name, x.value, x.default]),
      [['max_modules', 50, 50]],
    );
  });
  it('reflects disabled codes, overrides, parameter values and custom rules', () => {
    const all = effectiveCatalog(
      settings({
        disabled_policies: ['ARC-5', 'ORG-1'],
        severity_overrides: { 'SEC-3': 'critical' },
        parameters: { max_modules: 60, allowed_zones: ['eu1'] },
      }),
      [ORG_1],
    );
    const at = (code: string) => all.find((p) => p.code === code)!;
    assert.equal(at('ARC-5').enabled, false);
    assert.deepEqual([at('SEC-3').severity, at('SEC-3').effective_severity], ['high', 'critical']);
    assert.deepEqual(at('ARC-1').parameters[0], {
      name: 'max_modules',
      type: 'integer',
      description: at('ARC-1').parameters[0]!.description,
      value: 60,
      default: 50,
      minimum: 2,
      maximum: 1000,
    });
    assert.deepEqual(
      at('PRIV-7').parameters.map((x) => [x.name, x.value, x.default]),
      [['allowed_zones', ['eu1'], []]],
    );
    assert.deepEqual(
      at('SEC-11').parameters.map((x) => [x.name, x.value]),
      [
        ['allowed_apps', []],
        ['denied_apps', []],
      ],
    );
    assert.deepEqual(
      [all.at(-1)!.code, all.at(-1)!.source, all.at(-1)!.enabled, all.at(-1)!.docs],
      ['ORG-1', 'custom', false, null],
    );
  });
});
