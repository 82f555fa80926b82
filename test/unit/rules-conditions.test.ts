/** Custom rules (issue 17): each condition on small hand-written blueprints, one firing case and one look-alike. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m } from '../helpers/blueprints.js';
import { ruleFires, ruleOutcome } from '../helpers/rules.js';
import { Analysis } from '../../src/engine/analysis.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { NO_PARAMS } from '../../src/engine/policies/params.js';
import { compileRule, compileRules, validateRule } from '../../src/engine/rules/index.js';

const send = (id: number, mapper: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  m(id, 'http:ActionSendData', { mapper: { method: 'get', ...mapper }, ...extra });
const hook = (id: number) => m(id, 'gateway:CustomWebHook', { parameters: { hook: 12 }, mapper: null });

describe('module selection', () => {
  const flow = bp([
    m(1, 'google-sheets:addRow'),
    m(2, 'google-drive:uploadAFile'),
    m(3, 'google-sheets:getSheetContent'),
  ]);

  it('app: one name or a list', () => {
    assert.deepEqual(ruleFires({ app: 'google-sheets' }, flow), ['1', '3']);
    assert.deepEqual(ruleFires({ app: ['google-drive', 'airtable'] }, flow), ['2']);
    assert.deepEqual(ruleFires({ app: 'google' }, flow), []);
  });

  it('module: the exact type, one or a list', () => {
    assert.deepEqual(ruleFires({ module: ['google-sheets:addRow', 'google-sheets:updateRow'] }, flow), ['1']);
    assert.deepEqual(ruleFires({ module: 'google-sheets:addrow' }, flow), []);
  });
});

describe('field conditions', () => {
  it('equals: strings, numbers and booleans, compared strictly', () => {
    const flow = bp([send(1, { method: 'post', timeout: 5, gzip: true }), send(2, { timeout: '5', gzip: false })]);
    assert.deepEqual(ruleFires({ field: '/mapper/method', equals: 'post' }, flow), ['1']);
    assert.deepEqual(ruleFires({ field: '/mapper/timeout', equals: 5 }, flow), ['1']);
    assert.deepEqual(ruleFires({ field: '/mapper/gzip', equals: false }, flow), ['2']);
  });

  it('matches: a pattern on every value a wildcard reaches, with the field as evidence', () => {
    const flow = bp([
      send(1, {
        headers: [
          { name: 'X-Trace', value: 'off' },
          { name: 'Accept', value: 'application/json' },
        ],
      }),
      send(2, { headers: [{ name: 'Accept', value: 'text/html' }] }),
    ]);
    const outcome = ruleOutcome({ field: '/mapper/headers/*/value', matches: '^application/' }, flow);
    assert.deepEqual(
      outcome?.findings.map((f) => [f.moduleId, f.evidence?.pointer]),
      [['1', '/flow/0/mapper/headers/1/value']],
    );
    assert.equal(outcome?.findings[0]?.evidence?.value, 'application/json');
  });

  it('matches: a credential-named field is reported without its value', () => {
    const flow = bp([send(1, { headers: [{ name: 'Authorization', value: 'Bearer abc' }] })]);
    const [finding] = ruleOutcome({ field: '/mapper/headers/0/value', matches: '^Bearer' }, flow)?.findings ?? [];
    assert.equal(finding?.evidence?.value, undefined);
    assert.doesNotMatch(finding?.reason ?? '', /abc/);
  });

  it('present and absent: null and "" are not set', () => {
    const flow = bp([
      m(1, 'slack:CreateMessage', { parameters: { __IMTCONN__: 42 } }),
      m(2, 'slack:CreateMessage', { parameters: { __IMTCONN__: null } }),
      m(3, 'slack:CreateMessage', { parameters: {} }),
    ]);
    assert.deepEqual(ruleFires({ field: '/parameters/__IMTCONN__', present: true }, flow), ['1']);
    assert.deepEqual(ruleFires({ field: '/parameters/__IMTCONN__', absent: true }, flow), ['2', '3']);
  });

  it('domain_in: exact hosts, and *.example.com for subdomains only', () => {
    const flow = bp([
      send(1, { url: 'https://api.example.com/v1' }),
      send(2, { url: 'https://example.com/' }),
      send(3, { url: 'https://evil-example.com/x' }),
      send(4, { url: 'https://{{0.host}}/x' }),
    ]);
    assert.deepEqual(ruleFires({ field: '/mapper/url', domain_in: ['*.example.com'] }, flow), ['1']);
    assert.deepEqual(ruleFires({ field: '/mapper/url', domain_in: ['example.com', 'EVIL-example.com'] }, flow), [
      '2',
      '3',
    ]);
  });

  it('domain_not_in: a host off the list, or one a mapping chooses', () => {
    const flow = bp([
      send(1, { url: 'https://api.example.com/v1' }),
      send(2, { url: 'https://api.example.com{{0.path}}' }),
      send(3, { url: 'https://hooks.other.io/x' }),
      send(4, { url: '' }),
    ]);
    const outcome = ruleOutcome({ field: '/mapper/url', domain_not_in: ['*.example.com'] }, flow);
    assert.deepEqual(
      outcome?.findings.map((f) => f.moduleId),
      ['2', '3'],
    );
    assert.match(outcome?.findings[1]?.reason ?? '', /host `hooks\.other\.io` is not on the list/);
  });
});

describe('position', () => {
  it('has_error_handler', () => {
    const flow = bp([
      m(1, 'google-sheets:addRow', { onerror: [m(9, 'builtin:Ignore')] }),
      m(2, 'google-sheets:addRow'),
    ]);
    assert.deepEqual(ruleFires({ all: [{ app: 'google-sheets' }, { has_error_handler: false }] }, flow), ['2']);
    assert.deepEqual(ruleFires({ has_error_handler: true }, flow), ['1']);
  });

  it('followed_by_filter: the next module or a route carries a filter with conditions', () => {
    const gate = { name: 'Only paid', conditions: [[{ a: '{{1.status}}', b: 'paid', o: 'text:equal' }]] };
    const flow = bp([
      m(1, 'google-sheets:watchRows', { parameters: { limit: 2 } }),
      m(2, 'slack:CreateMessage', { filter: gate }),
      m(3, 'builtin:BasicRouter', {
        mapper: null,
        routes: [{ flow: [m(4, 'slack:CreateMessage', { filter: { name: 'Label only', conditions: [] } })] }],
      }),
    ]);
    assert.deepEqual(ruleFires({ followed_by_filter: true }, flow), ['1']);
    assert.deepEqual(ruleFires({ all: [{ app: 'slack' }, { followed_by_filter: false }] }, flow), ['2', '4']);
  });

  it('is_trigger: the first module when it is a trigger', () => {
    assert.deepEqual(
      ruleFires({ is_trigger: true }, bp([m(1, 'google-sheets:watchRows'), m(2, 'slack:CreateMessage')])),
      ['1'],
    );
    assert.deepEqual(ruleFires({ is_trigger: true }, bp([m(1, 'google-sheets:getSheetContent')])), []);
  });
});

describe('data flow', () => {
  const flow = bp([
    hook(1),
    send(2, { url: '{{1.link}}' }),
    send(3, { url: 'https://api.example.com/x', data: '{"note": "{{1.link}}"}' }),
    send(4, { url: 'https://api.example.com/x', data: '{{2.data}}' }),
  ]);

  it('value_from untrusted: on the given field, or on any mapped field', () => {
    assert.deepEqual(ruleFires({ value_from: 'untrusted', field: '/mapper/url' }, flow), ['2']);
    // 4 maps the page module 2 fetched: a fetched page is an untrusted source too (sources.ts).
    assert.deepEqual(ruleFires({ value_from: 'untrusted' }, flow), ['2', '3', '4']);
    assert.deepEqual(
      ruleFires({ value_from: 'untrusted' }, bp([hook(1), send(2, { url: 'https://api.example.com/x' })])),
      [],
    );
  });

  it('value_from personal: an e-mail address from the webhook, not an API response', () => {
    const people = bp([
      hook(1),
      send(2, { url: 'https://api.example.com/x', data: '{"to": "{{1.email}}"}' }),
      send(3, { url: 'https://api.example.com/y', data: '{"n": "{{2.data.count}}"}' }),
    ]);
    const outcome = ruleOutcome({ value_from: 'personal', field: '/mapper/data' }, people);
    assert.deepEqual(
      outcome?.findings.map((f) => [f.moduleId, f.evidence?.pointer]),
      [['2', '/flow/1/mapper/data']],
    );
    assert.match(outcome?.findings[0]?.reason ?? '', /e-mail address `1\.email`/);
  });
});

describe('compiled policy', () => {
  it('has the built-in shape: rule severity and status, reason naming the rule, remediation from the text', () => {
    const v = validateRule({
      title: 'Sheets writes need an error handler',
      severity: 'medium',
      category: 'DI',
      status: 'warn',
      compliance_frameworks: [{ framework: 'SOC 2', control: 'PI1.3' }],
      remediation: 'Add an error handler.\n\nRetry with Break.',
      match: { all: [{ app: 'google-sheets' }, { has_error_handler: false }] },
    });
    assert.ok(v.ok);
    const policy = compileRule('ORG-3', v.rule);
    assert.deepEqual([policy.code, policy.category, policy.severity], ['ORG-3', 'DI', 'medium']);
    const parsed = parseBlueprint(bp([m(1, 'google-sheets:addRow')]));
    assert.ok(parsed.ok);
    const analysis = new Analysis(parsed.graph);
    const outcome = policy.evaluate(analysis, NO_PARAMS);
    assert.deepEqual(outcome, {
      status: 'warn',
      summary: 'Sheets writes need an error handler: 1 module',
      findings: [
        {
          moduleId: '1',
          severity: 'medium',
          reason: 'ORG-3 "Sheets writes need an error handler": has no error handler',
          evidence: { pointer: '/flow/0' },
        },
      ],
    });
    assert.deepEqual(policy.remediation.steps(outcome, analysis), [
      'Add an error handler.',
      'Retry with Break.',
      'Modules: **Google Sheets · Add Row** (module 1, `google-sheets:addRow`).',
    ]);
  });

  it('reports at most 200 modules and counts the rest in the summary', () => {
    const flow = bp(Array.from({ length: 205 }, (_, i) => m(i + 1, 'slack:CreateMessage')));
    const outcome = ruleOutcome({ app: 'slack' }, flow);
    assert.equal(outcome?.findings.length, 200);
    assert.equal(outcome?.summary, 'Test rule: 205 modules (first 200 reported)');
  });

  it('compileRules keeps the order; a code that is not ORG-<n> is a caller bug', () => {
    const v = validateRule({ title: 't', severity: 'low', category: 'OPS', remediation: 'r', match: { app: 'x' } });
    assert.ok(v.ok);
    const codes = compileRules([
      { code: 'ORG-2', rule: v.rule },
      { code: 'ORG-10', rule: v.rule },
    ]).map((p) => p.code);
    assert.deepEqual(codes, ['ORG-2', 'ORG-10']);
    assert.throws(() => compileRule('SEC-1', v.rule), RangeError);
  });
});
