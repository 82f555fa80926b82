/**
 * SEC-13 (issue 32, "Injection into queries"): values spliced into SQL, shell commands and source
 * code, with their severity from the source's trust; bound parameters, escaped literals, numbers
 * and constants are not reported. Our own small blueprints, never corpus copies.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlueprint } from '../../../src/engine/index.js';
import { Analysis } from '../../../src/engine/analysis.js';
import { SEC_13 } from '../../../src/engine/policies/sec/SEC-13.js';
import { bp, breakHandler, m, type Mod } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';

const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } });
const mail = m(1, 'email:TriggerNewEmail', { parameters: { folder: 'INBOX' } });
const sheet = m(1, 'google-sheets:watchRows', { parameters: { spreadsheetId: 'x' } });
const pg = (id: number, mapper: Record<string, unknown>, action = 'ExecuteQuery') =>
  m(id, `postgres:${action}`, { parameters: { account: 7 }, mapper, onerror: breakHandler(id + 100) });
const mysql = (id: number, query: string) =>
  m(id, 'mysql:ExecuteQuery', { parameters: { account: 7 }, mapper: { query }, onerror: breakHandler(id + 100) });

/** The SEC-13 failing modules as `[id, severity]`. */
function judged(flow: Mod[]): [string, string][] {
  const v = violationOf(bp(flow), 'SEC-13');
  assert.ok(v, 'SEC-13 expected to report');
  return v.failing_modules.map((f) => [f.module_id, f.severity]);
}

describe('SEC-13 SQL built from mapped values', () => {
  it('reports a public webhook value inside a quoted PostgreSQL string as high, naming the field and the source', () => {
    const v = violationOf(bp([hook, pg(2, { query: "SELECT * FROM leads WHERE name = '{{1.name}}'" })]), 'SEC-13');
    assert.ok(v);
    assert.deepEqual(
      v.failing_modules.map((f) => [f.module_id, f.severity]),
      [['2', 'high']],
    );
    assert.match(
      v.failing_modules[0]!.reason,
      /^`query` splices `1\.name` from a webhook payload .*quoted string of an SQL `SELECT`/,
    );
    assert.equal(v.failing_modules[0]!.evidence?.pointer, '/flow/1/mapper/query');
  });

  it('reports an unquoted splice (an identifier or a number position) just the same', () => {
    assert.deepEqual(judged([hook, pg(2, { query: 'DELETE FROM {{1.table}} WHERE id = {{1.id}}' })]), [['2', 'high']]);
  });

  it('passes a parameterised query whose values sit in their own fields, and a stored procedure', () => {
    passes(
      bp([
        hook,
        pg(2, { query: 'SELECT * FROM leads WHERE name = $1 AND city = $2', parameters: ['{{1.name}}', '{{1.city}}'] }),
        pg(3, { '@01:text': '{{1.name}}', '@02:text': '{{1.city}}' }, 'StoredProcedure'),
      ]),
      'SEC-13',
    );
  });

  it('rates a value from an internal sheet medium (second-order injection)', () => {
    assert.deepEqual(judged([sheet, mysql(2, "UPDATE clients SET note = '{{1.`3`}}' WHERE id = 4")]), [
      ['2', 'medium'],
    ]);
  });

  it('accepts doubled quotes as escaping on PostgreSQL but not on MySQL, where a backslash escapes the quote', () => {
    const escaped = `SELECT id FROM leads WHERE email = '{{replace(1.email; "'"; "''")}}'`;
    passes(bp([hook, pg(2, { query: escaped })]), 'SEC-13');
    assert.deepEqual(judged([hook, mysql(2, escaped)]), [['2', 'high']]);
    passes(
      bp([
        hook,
        mysql(2, `SELECT id FROM leads WHERE email = '{{replace(replace(1.email; "\\"; "\\\\"); "'"; "''")}}'`),
      ]),
      'SEC-13',
    );
  });

  it('does not report numbers by construction, constants or Make variables', () => {
    const constant = m(2, 'util:SetVariable2', { mapper: { name: 'table', value: 'leads' } });
    passes(
      bp([
        hook,
        constant,
        pg(3, {
          query:
            'SELECT * FROM {{2.table}} WHERE id = {{parseNumber(1.id)}} AND day = \'{{formatDate(now; "YYYY-MM-DD")}}\'',
        }),
      ]),
      'SEC-13',
    );
  });

  it('rates a whole statement written by a model high when its prompt carries webhook input, medium when it reads only a sheet', () => {
    const ai = (id: number, prompt: string) =>
      m(id, 'openai-gpt-3:CreateCompletion', { mapper: { messages: [{ role: 'user', content: prompt }] } });
    assert.deepEqual(
      judged([hook, ai(2, 'Write SQL for: {{1.question}}'), pg(3, { query: '{{2.choices[].message.content}}' })]),
      [['3', 'high']],
    );
    assert.deepEqual(
      judged([sheet, ai(2, 'Write SQL for: {{1.`0`}}'), pg(3, { query: '{{2.choices[].message.content}}' })]),
      [['3', 'medium']],
    );
  });

  it('finds SQL by its shape in an HTTP call, but not a search term or prose', () => {
    const http = (id: number, mapper: Record<string, unknown>) =>
      m(id, 'http:MakeRequest', { version: 4, mapper, onerror: breakHandler(id + 100) });
    assert.deepEqual(
      failingIds(
        bp([
          mail,
          http(2, {
            url: 'https://crm.example.com/Queries',
            method: 'get',
            queryParameters: [{ name: 'script', value: "SELECT Id FROM Person WHERE Email = '{{1.from.address}}'" }],
          }),
          http(3, {
            url: 'https://db.example.com/sql',
            method: 'post',
            jsonStringBodyContent: '{"query": "delete from notes where owner = \'{{1.subject}}\'"}',
          }),
          http(4, { url: 'https://search.example.com/', queryParameters: [{ name: 'query', value: '{{1.subject}}' }] }),
          http(5, {
            url: 'https://x.example.com/',
            method: 'post',
            data: 'Select one from the list below: {{1.text}}',
          }),
        ]),
        'SEC-13',
      ),
      ['2', '3'],
    );
  });

  it('ignores SQL in an AI prompt and in a message: neither is run as a query', () => {
    passes(
      bp([
        hook,
        m(2, 'openai-gpt-3:CreateCompletion', {
          mapper: { messages: [{ role: 'user', content: "SELECT name FROM t WHERE x = '{{1.x}}'" }] },
        }),
        m(3, 'slack:CreateMessage', { mapper: { channel: 'C1', text: "SELECT name FROM t WHERE x = '{{1.x}}'" } }),
      ]),
      'SEC-13',
    );
  });
});

describe('SEC-13 commands and code', () => {
  it('reports an inbound mail body pasted into a code module source as high, and leaves it out of SEC-7', () => {
    const code = m(2, 'custom-js:execute', {
      parameters: { jscode: 'const body = `{{1.text}}`; return body.length;' },
      mapper: {},
      onerror: breakHandler(9),
    });
    const v = violationOf(bp([mail, code]), 'SEC-13');
    assert.ok(v);
    assert.deepEqual(
      v.failing_modules.map((f) => [f.module_id, f.severity]),
      [['2', 'high']],
    );
    assert.match(
      v.failing_modules[0]!.reason,
      /^`jscode` splices `1\.text` from an incoming e-mail .* into the source code$/,
    );
    passes(bp([mail, code]), 'SEC-7');
  });

  it('does not report a code module that receives the value as an input', () => {
    passes(
      bp([
        mail,
        m(2, 'custom-js:execute', { parameters: { jscode: 'return input.trim()' }, mapper: { input: '{{1.text}}' } }),
      ]),
      'SEC-13',
    );
  });

  it('reports a webhook value in an SSH command', () => {
    assert.deepEqual(judged([hook, m(2, 'ssh:ExecuteCommand', { mapper: { command: 'ls -la /srv/{{1.folder}}' } })]), [
      ['2', 'high'],
    ]);
  });
});

describe('SEC-13 evidence', () => {
  it('gives each finding its risk-model row and a path from the source module to the sink', () => {
    const r = parseBlueprint(
      bp([
        hook,
        m(2, 'util:SetVariable2', { mapper: { name: 'n', value: '{{1.name}}' } }),
        pg(3, { query: "DELETE FROM t WHERE n = '{{2.n}}'" }),
      ]),
    );
    assert.ok(r.ok);
    const outcome = SEC_13.evaluate(new Analysis(r.graph), {});
    assert.ok(outcome);
    const f = outcome.findings[0]!;
    assert.deepEqual(f.risk, {
      id: 'R24',
      title: f.risk!.title,
      severity: 'high',
      trust: 'public-webhook',
      impact: 'delete',
    });
    assert.deepEqual(
      f.path?.map((s) => [s.moduleId, s.role]),
      [
        ['1', 'source'],
        ['3', 'sink'],
      ],
    );
  });
});
