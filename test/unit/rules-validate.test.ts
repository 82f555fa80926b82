/** Custom rules (issue 17): validation of rule bodies, the published schema, and the patterns the linear-time engine refuses. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CUSTOM_RULE_SCHEMA, RULE_LIMITS, validateRule } from '../../src/engine/rules/index.js';
import { ruleBody } from '../helpers/rules.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../../docs/schemas/custom-rule.schema.json', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/custom-rules.md', import.meta.url));

/** The issues of a refused body. */
function issues(body: unknown): { path: string; message: string }[] {
  const v = validateRule(body);
  assert.equal(v.ok, false, 'expected the body to be refused');
  return v.ok ? [] : [...v.detail];
}

const paths = (body: unknown) => issues(body).map((i) => i.path);

describe('validateRule', () => {
  it('accepts a rule using every condition kind, with defaults left out', () => {
    const body = ruleBody(
      {
        all: [
          { app: ['http', 'google-sheets'] },
          { module: 'http:ActionSendData' },
          { any: [{ has_error_handler: false }, { followed_by_filter: true }, { is_trigger: false }] },
          { not: { field: '/mapper/url', domain_in: ['api.example.com', '*.example.org'] } },
          { field: '/mapper/url', domain_not_in: ['*.example.com'] },
          { field: '/mapper/method', equals: 'POST' },
          { field: '/mapper/headers/*/value', matches: '^Bearer ' },
          { field: '/parameters/__IMTCONN__', present: true },
          { field: '/mapper/a~1b', absent: true },
          { value_from: 'untrusted', field: '/mapper/url' },
          { value_from: 'personal' },
        ],
      },
      {
        description: 'd',
        status: 'warn',
        compliance_frameworks: [
          { framework: 'SOC 2', control: 'CC6.1' },
          { framework: 'GDPR', article: 'Art. 32' },
        ],
      },
    );
    const v = validateRule(body);
    assert.ok(v.ok, v.ok ? '' : JSON.stringify(v.detail));
    assert.deepEqual(v.rule, body);
  });

  it('refuses an unknown operator at its member', () => {
    assert.deepEqual(paths(ruleBody({ field: '/mapper/url', contains: 'x' })), ['/match/contains']);
    assert.deepEqual(paths(ruleBody({ all: [{ app: 'http' }, { regex: 'x' }] })), [
      '/match/all/1',
      '/match/all/1/field',
      '/match/all/1/regex',
    ]);
  });

  it('refuses a pattern that does not compile', () => {
    const [issue] = issues(ruleBody({ all: [{ app: 'http' }, { field: '/mapper/url', matches: '(a' }] }));
    assert.equal(issue?.path, '/match/all/1/matches');
    assert.match(issue.message, /not a valid RE2 pattern/);
  });

  it('accepts patterns that backtrack catastrophically in JavaScript: they run in linear time', () => {
    for (const matches of ['^(a+)+$', '(a|a)'.repeat(30) + 'b', 'a{0,32}'.repeat(6) + 'b', '.*a.*b'])
      assert.ok(validateRule(ruleBody({ field: '/mapper/url', matches })).ok, matches);
  });

  it('refuses lookaround and back-references at the pointer of the pattern, and one longer than 200 characters', () => {
    for (const matches of ['(a)\\1', '(?=a)', '(?<=a)b', '(?!a)']) {
      const [issue, ...rest] = issues(ruleBody({ any: [{ app: 'x' }, { field: '/mapper/url', matches }] }));
      assert.deepEqual(rest, []);
      assert.equal(issue?.path, '/match/any/1/matches');
      assert.match(issue.message, /^uses .*, which the linear-time pattern engine \(RE2 syntax\) does not support$/);
    }
    assert.deepEqual(paths(ruleBody({ field: '/mapper/url', matches: 'a'.repeat(RULE_LIMITS.regex + 1) })), [
      '/match/matches',
    ]);
  });

  it('refuses a path through __proto__, constructor or prototype, and a malformed pointer', () => {
    for (const segment of ['__proto__', 'constructor', 'prototype'])
      assert.deepEqual(issues(ruleBody({ not: { field: `/mapper/${segment}/x`, present: true } })), [
        { path: '/match/not/field', message: `may not name \`${segment}\`` },
      ]);
    assert.deepEqual(paths(ruleBody({ field: 'mapper.url', present: true })), ['/match/field']);
    assert.deepEqual(paths(ruleBody({ field: '/metadata/x', present: true })), ['/match/field']);
    assert.deepEqual(paths(ruleBody({ field: '/mapper/a~2', present: true })), ['/match/field']);
  });

  it('refuses all/any/not nested more than 4 deep, at the fifth', () => {
    const ok = { not: { all: [{ any: [{ not: { app: 'x' } }] }] } };
    assert.ok(validateRule(ruleBody(ok)).ok);
    assert.deepEqual(issues(ruleBody({ not: ok })), [
      { path: '/match/not/not/all/0/any/0', message: 'nests all/any/not more than 4 levels deep' },
    ]);
  });

  it('refuses more than 32 conditions in the whole tree', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => ({ app: `a${i}` }));
    assert.ok(validateRule(ruleBody({ any: [{ all: twenty.slice(0, 16) }, { all: twenty.slice(0, 16) }] })).ok);
    assert.deepEqual(issues(ruleBody({ any: [{ all: twenty }, { all: twenty }] })), [
      { path: '/match', message: 'has 40 conditions; at most 32' },
    ]);
  });

  it('refuses an unknown framework, and a control where the framework cites articles', () => {
    assert.deepEqual(paths(ruleBody({ app: 'x' }, { compliance_frameworks: [{ framework: 'SOX', control: '404' }] })), [
      '/compliance_frameworks/0/framework',
    ]);
    assert.deepEqual(
      issues(ruleBody({ app: 'x' }, { compliance_frameworks: [{ framework: 'GDPR', control: 'Art. 32' }] })),
      [{ path: '/compliance_frameworks/0', message: 'GDPR is cited by `article`' }],
    );
  });

  it('refuses a code member: the service assigns ORG-<n>', () => {
    assert.deepEqual(issues({ ...ruleBody({ app: 'x' }), code: 'ORG-7' }), [
      { path: '/code', message: 'is assigned by the service (ORG-<n>) and may not be part of the rule body' },
    ]);
  });

  it('refuses missing members, bad enums, a long title and a body over 16 KiB', () => {
    const { remediation: _r, ...noRemediation } = ruleBody({ app: 'x' });
    assert.deepEqual(paths(noRemediation), ['/remediation']);
    assert.deepEqual(paths(ruleBody({ app: 'x' }, { severity: 'urgent', category: 'FIN' })), [
      '/severity',
      '/category',
    ]);
    assert.deepEqual(paths(ruleBody({ app: 'x' }, { title: 't'.repeat(121) })), ['/title']);
    assert.deepEqual(issues(ruleBody({ app: 'x' }, { description: 'd'.repeat(17_000) })), [
      {
        path: '/',
        message: `is ${JSON.stringify(ruleBody({ app: 'x' }, { description: 'd'.repeat(17_000) })).length} bytes; a rule is at most 16384 bytes`,
      },
    ]);
    assert.deepEqual(paths(ruleBody({ field: '/mapper/url', domain_in: ['https://example.com'] })), [
      '/match/domain_in/0',
    ]);
    assert.deepEqual(paths('not an object'), ['/']);
  });
});

describe('published schema', () => {
  it('docs/schemas/custom-rule.schema.json equals CUSTOM_RULE_SCHEMA', () => {
    assert.deepEqual(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')), CUSTOM_RULE_SCHEMA);
  });
});

describe('docs/custom-rules.md', () => {
  it('every complete example is a valid rule', () => {
    const blocks = [...readFileSync(DOCS, 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
      (b) => JSON.parse(b[1]!) as unknown,
    );
    assert.equal(blocks.length, 3);
    for (const body of blocks) {
      const v = validateRule(body);
      assert.ok(v.ok, v.ok ? '' : JSON.stringify(v.detail));
    }
  });
});
