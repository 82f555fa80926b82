/**
 * Issue 17 parameterised policies: ARC-1 `max_modules`, PRIV-7 `allowed_zones`, SEC-11
 * `allowed_apps` / `denied_apps`, SEC-12 `allowed_http_domains`; each fires on a small blueprint and
 * not on its look-alike, and never with the default (empty) settings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateBlueprint, type GovernanceSettingsBody, type Violation } from '../../../src/engine/index.js';
import { bp, m } from '../../helpers/blueprints.js';
import { corpusJson, corpusSuite } from '../../helpers/corpus.js';

const settings = (parameters: Record<string, unknown>): GovernanceSettingsBody => ({
  disabled_policies: [],
  severity_overrides: {},
  parameters,
});

/** The violation of `code` under `parameters`, or undefined. */
function under(blueprint: unknown, code: string, parameters: Record<string, unknown> = {}): Violation | undefined {
  const r = evaluateBlueprint(blueprint, { scenarioId: 's1', settings: settings(parameters) });
  assert.ok(r.ok, r.ok ? '' : JSON.stringify(r.error));
  assert.deepEqual(r.evaluation.policy_errors, []);
  return r.evaluation.violations.find((v) => v.policy === code);
}

const tools = (n: number) => Array.from({ length: n }, (_, i) => m(i + 1, 'util:SetVariable2'));
const withZone = (zone: unknown) => bp([m(1, 'util:SetVariable2')], {}, { zone });

describe('ARC-1 max_modules', () => {
  it('keeps its default limit of 50: 51 modules warn (low), 101 fail (medium)', () => {
    assert.equal(under(bp(tools(50)), 'ARC-1'), undefined);
    assert.deepEqual([under(bp(tools(51)), 'ARC-1')?.status, under(bp(tools(51)), 'ARC-1')?.severity], ['warn', 'low']);
    assert.equal(under(bp(tools(101)), 'ARC-1')?.severity, 'medium');
  });
  it('reads the organization limit: 20 modules warn above 15 and fail above 30; 60 pass at 60', () => {
    const v = under(bp(tools(20)), 'ARC-1', { max_modules: 15 });
    assert.deepEqual([v?.status, v?.summary], ['warn', 'The scenario has 20 modules (limit 15)']);
    assert.equal(under(bp(tools(31)), 'ARC-1', { max_modules: 15 })?.status, 'fail');
    assert.equal(under(bp(tools(60)), 'ARC-1', { max_modules: 60 }), undefined);
  });
});

describe('PRIV-7 allowed zones', () => {
  it('fails a us2 scenario when only eu1 and eu2 are allowed, with the zone as evidence', () => {
    const v = under(withZone('us2.make.com'), 'PRIV-7', { allowed_zones: ['eu1', 'eu2'] });
    assert.deepEqual(
      [v?.status, v?.severity, v?.evidence],
      ['fail', 'high', { pointer: '/metadata/zone', value: 'us2.make.com' }],
    );
  });
  it('passes a zone whose first label is allowed (Celonis and Integromat hosts too) or that is listed whole', () => {
    for (const zone of ['eu1.make.com', 'eu1.make.celonis.com', 'eu1.integromat.com', 'EU2.make.com'])
      assert.equal(under(withZone(zone), 'PRIV-7', { allowed_zones: ['eu1', 'eu2'] }), undefined, zone);
    assert.equal(under(withZone('us1.make.com'), 'PRIV-7', { allowed_zones: ['us1.make.com'] }), undefined);
  });
  it('does not take a look-alike label for a zone: eu10 is not eu1, and a whole host must match exactly', () => {
    assert.equal(under(withZone('eu10.make.com'), 'PRIV-7', { allowed_zones: ['eu1'] })?.status, 'fail');
    assert.equal(
      under(withZone('eu1.make.celonis.com'), 'PRIV-7', { allowed_zones: ['eu1.make.com'] })?.status,
      'fail',
    );
  });
  it('warns low when the zone is absent or a placeholder: residency cannot be verified', () => {
    const absent = under(bp([m(1, 'util:SetVariable2')], {}, { zone: undefined }), 'PRIV-7', {
      allowed_zones: ['eu1'],
    });
    assert.deepEqual([absent?.status, absent?.severity, absent?.evidence?.pointer], ['warn', 'low', '/metadata']);
    const template = under(withZone('YOUR_MAKE_ZONE'), 'PRIV-7', { allowed_zones: ['eu1'] });
    assert.deepEqual(
      [template?.status, template?.evidence],
      ['warn', { pointer: '/metadata/zone', value: 'YOUR_MAKE_ZONE' }],
    );
  });
  it('never fires without allowed zones', () => {
    assert.equal(under(withZone('us2.make.com'), 'PRIV-7'), undefined);
    assert.equal(under(withZone(null), 'PRIV-7'), undefined);
  });
  const zones = (us2: () => unknown, eu1: () => unknown) => () => {
    const only = { allowed_zones: ['eu1'] };
    assert.equal(under(us2(), 'PRIV-7', only)?.evidence?.value, 'us2.make.com');
    assert.equal(under(eu1(), 'PRIV-7', only), undefined);
    assert.equal(under(us2(), 'PRIV-7'), undefined, 'default settings');
  };
  it(
    'on the fixtures: eu1 only fires on a us2.make.com export, not on an eu1.make.com one',
    zones(
      () => corpusJson('order-webhook-router.blueprint.json', 'fixtures'),
      () => corpusJson('price-alert.blueprint.json', 'fixtures'),
    ),
  );
  corpusSuite('on the make corpus', ['make'], ({ it }) => {
    it(
      'eu1 only fires on a us2.make.com export, not on an eu1.make.com one',
      zones(
        () => corpusJson('bicced-automated-crypto-price-tracker-for-discord-btc-eth-via-coingecko.blueprint.json'),
        () => corpusJson('6302mohamed-agency-intake-routing-duplicate-detection.blueprint.json'),
      ),
    );
  });
});

describe('SEC-11 app approval', () => {
  const blueprint = bp([
    m(1, 'gateway:CustomWebHook', { parameters: { hook: 12 } }),
    m(2, 'builtin:BasicRouter', {
      routes: [{ flow: [m(3, 'google-sheets:addRow')] }, { flow: [m(4, 'airtable:ActionCreateRecord')] }],
    }),
    m(5, 'json:ParseJSON'),
    m(6, 'http:ActionSendData', { mapper: { url: 'https://api.example.com/x' } }),
    m(7, 'app#courageousteams-614494:getOrder'),
  ]);
  const ids = (v: Violation | undefined) => v?.failing_modules.map((f) => [f.module_id, f.severity]);

  it('fails modules outside a non-empty allow-list (medium), the router and JSON tools exempt', () => {
    const v = under(blueprint, 'SEC-11', { allowed_apps: ['gateway', 'google-sheets', 'http:ActionSendData'] });
    assert.deepEqual(ids(v), [
      ['4', 'medium'],
      ['7', 'medium'],
    ]);
    assert.equal(v?.failing_modules[0]!.evidence?.pointer, '/flow/1/routes/1/flow/0/module');
  });
  it('fails denied apps and exact module types (high), tools included, whatever the allow-list says', () => {
    const v = under(blueprint, 'SEC-11', {
      allowed_apps: ['gateway', 'google-sheets', 'airtable', 'http', 'courageousteams'],
      denied_apps: ['http:ActionSendData', 'json', 'app#courageousteams-614494'],
    });
    assert.deepEqual(ids(v), [
      ['5', 'high'],
      ['6', 'high'],
      ['7', 'high'],
    ]);
  });
  it('passes a look-alike: an allowed app by name covers all its modules, and an exact type only itself', () => {
    const allowed = ['gateway', 'google-sheets', 'airtable', 'http:ActionSendData', 'courageousteams'];
    assert.equal(under(blueprint, 'SEC-11', { allowed_apps: allowed }), undefined);
    assert.equal(under(blueprint, 'SEC-11', { denied_apps: ['http:ActionGetFile', 'google-sheets-x'] }), undefined);
    assert.equal(under(blueprint, 'SEC-11'), undefined, 'default settings');
  });
});

describe('SEC-12 approved HTTP domains', () => {
  const call = (id: number, url: string) => m(id, 'http:ActionSendData', { mapper: { url, method: 'get' } });
  const allowed = { allowed_http_domains: ['api.example.com', '*.example.org'] };

  it('fails a literal host outside the list, with the URL field as evidence', () => {
    const v = under(
      bp([call(1, 'https://api.example.com/v1'), call(2, 'https://webhook.site/abc')]),
      'SEC-12',
      allowed,
    );
    assert.deepEqual(
      v?.failing_modules.map((f) => [f.module_id, f.severity, f.evidence]),
      [['2', 'high', { pointer: '/flow/1/mapper/url', value: 'webhook.site' }]],
    );
  });
  it('passes exact hosts and subdomains of a wildcard, not the wildcard apex or a suffix look-alike', () => {
    assert.equal(
      under(bp([call(1, 'https://API.example.com:443/v1'), call(2, 'https://a.b.example.org/')]), 'SEC-12', allowed),
      undefined,
    );
    const v = under(bp([call(1, 'https://example.org/'), call(2, 'https://evilexample.org/')]), 'SEC-12', allowed);
    assert.deepEqual(
      v?.failing_modules.map((f) => f.module_id),
      ['1', '2'],
    );
  });
  it('warns low on a host mapped at run time, and leaves a mapped path on an approved host alone', () => {
    const v = under(bp([call(1, '{{1.url}}'), call(2, 'https://api.example.com/{{1.path}}')]), 'SEC-12', allowed);
    assert.deepEqual([v?.status, v?.failing_modules.map((f) => [f.module_id, f.severity])], ['warn', [['1', 'low']]]);
  });
  it('ignores apps other than HTTP and never fires without the list', () => {
    assert.equal(
      under(bp([m(1, 'slack:CreateMessage', { mapper: { url: 'https://x.test/' } })]), 'SEC-12', allowed),
      undefined,
    );
    assert.equal(under(bp([call(1, 'https://webhook.site/abc')]), 'SEC-12'), undefined);
  });
});
