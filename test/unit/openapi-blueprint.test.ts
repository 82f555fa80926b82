/**
 * The documented blueprint and request schemas (issue 19 §3) against the real inputs and the server:
 * every blueprint of both corpora (75 Make exports) is valid against `components.schemas.Blueprint`
 * (JSON Schema 2020-12, the dialect of OpenAPI 3.1, checked with ajv); every shape the engine refuses
 * the schema refuses too; and the documented request bodies accept exactly what the compiled
 * validators and the routes accept (docs/api.md "Request schemas: validation and documentation").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileValidators } from '../../src/api/requests.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { CUSTOM_RULE_SCHEMA } from '../../src/engine/rules/schema.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { REAL_CORPUS_SIZE, corpusFacts, corpusJson, eachCorpus } from '../helpers/corpus.js';
import { bp, m } from '../helpers/blueprints.js';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...openApiDocument(), $id: 'https://gov.local/openapi.json' });
const schema = (name: string) => {
  const validate = ajv.getSchema(`https://gov.local/openapi.json#/components/schemas/${name}`);
  assert.ok(validate, name);
  return validate;
};
const blueprintSchema = schema('Blueprint');
const errorsOf = (v: ReturnType<typeof schema>) => JSON.stringify(v.errors?.slice(0, 3));

/** A small valid blueprint: trigger, router with two routes (one filtered), an error handler. */
function sample(): Record<string, unknown> {
  return bp([
    m(1, 'gateway:CustomWebHook', { parameters: { hook: 1 } }),
    m(2, 'builtin:BasicRouter', {
      mapper: null,
      routes: [
        {
          flow: [
            m(3, 'slack:CreateMessage', {
              filter: { name: 'ok', conditions: [[{ a: '{{1.ok}}', o: 'exist' }]] },
              onerror: [m(4, 'builtin:Ignore')],
            }),
          ],
        },
        { flow: [], disabled: true },
      ],
    }),
  ]);
}
type Obj = Record<string, unknown>;
/** The parts of a `sample()` an edit changes. */
interface Parts {
  readonly b: Obj;
  readonly flow: unknown[];
  readonly trigger: Obj;
  readonly router: Obj;
  readonly route: Obj;
  readonly routed: Obj;
}
/** `sample()` with one change made by `edit`. */
function edited(edit: (p: Parts) => unknown): Obj {
  const b = sample();
  const flow = b['flow'] as Obj[];
  const router = flow[1]!;
  const route = (router['routes'] as Obj[])[0]!;
  edit({ b, flow, trigger: flow[0]!, router, route, routed: (route['flow'] as Obj[])[0]! });
  return b;
}

eachCorpus('Blueprint schema on a corpus', ['fixtures', 'make', 'make-extra'], (corpus, { it }) => {
  it('accepts every blueprint of the corpus, as the engine does', () => {
    const facts = corpusFacts(corpus);
    for (const f of facts) {
      const b = corpusJson(f.file, corpus);
      assert.equal(parseBlueprint(b).ok, true, `${corpus}/${f.file}: the engine refuses it`);
      assert.ok(blueprintSchema(b), `${corpus}/${f.file}: ${errorsOf(blueprintSchema)}`);
    }
    if (corpus === 'fixtures') assert.ok(facts.length > 0);
    else assert.equal(facts.length, REAL_CORPUS_SIZE[corpus]);
  });
});

describe('Blueprint schema', () => {
  it('accepts what Make exports beyond the common case and the engine reads', () => {
    const cases: Record<string, Record<string, unknown>> = {
      'the sample': sample(),
      'an empty slot with id null': edited(({ flow }) => flow.push({ id: null, module: 'placeholder:Placeholder' })),
      'an id as a string of digits': edited(({ trigger }) => (trigger['id'] = '17')),
      'a custom app': edited(({ trigger }) => (trigger['module'] = 'app#courageousteams-614494:getOrder')),
      'null filter, parameters and name': edited(({ b, trigger }) => {
        trigger['filter'] = null;
        trigger['parameters'] = null;
        b['name'] = null;
      }),
      'no metadata at all': edited(({ b }) => delete b['metadata']),
      'an if/else with a condition and an else branch, then a Merge': edited(({ flow }) =>
        flow.push(
          m(10, 'builtin:BasicIfElse', {
            mapper: null,
            branches: [
              {
                label: 'Urgent',
                type: 'condition',
                merge: true,
                conditions: [[{ a: '{{1.p}}', o: 'text:equal', b: 'u' }]],
                flow: [m(11, 'slack:CreateMessage')],
              },
              { label: '', type: 'else', merge: true, disabled: false, flow: [] },
            ],
          }),
          m(12, 'builtin:BasicMerge', { mapper: null, outputs: [], filters: [null, null] }),
        ),
      ),
      'an agent with tools': edited(({ flow }) =>
        flow.push(
          m(10, 'ai-local-agent:RunLocalAIAgent', {
            tools: [{ name: 'Draft', description: 'Writes a draft', flow: [m(11, 'google-email:createADraft')] }],
          }),
        ),
      ),
      'orphans on the canvas': edited(({ b }) => {
        (b['metadata'] as Obj)['designer'] = {
          orphans: [[m(10, 'http:ActionSendData'), m(11, 'slack:CreateMessage')]],
        };
      }),
      'unknown keys everywhere': edited(({ b, trigger, route }) => {
        b['_public_note'] = 'x';
        trigger['data'] = {};
        route['extra'] = 1;
      }),
    };
    for (const [name, b] of Object.entries(cases)) {
      assert.equal(parseBlueprint(b).ok, true, `${name}: the engine refuses it`);
      assert.ok(blueprintSchema(b), `${name}: ${errorsOf(blueprintSchema)}`);
    }
  });

  it('refuses every shape the engine refuses (a valid blueprint is never a 422 for its shape)', () => {
    const cases: Record<string, unknown> = {
      'an array': [],
      'no flow': edited(({ b }) => delete b['flow']),
      'flow an object': edited(({ b }) => (b['flow'] = {})),
      'name a number': edited(({ b }) => (b['name'] = 5)),
      'metadata an array': edited(({ b }) => (b['metadata'] = [])),
      'a module a string': edited(({ flow }) => flow.push('x')),
      'id a word': edited(({ trigger }) => (trigger['id'] = 'one')),
      'id a fraction': edited(({ trigger }) => (trigger['id'] = 1.5)),
      'module missing': edited(({ trigger }) => delete trigger['module']),
      'module without a colon': edited(({ trigger }) => (trigger['module'] = 'webhook')),
      'module with a space': edited(({ trigger }) => (trigger['module'] = 'http: x')),
      'routes an object': edited(({ router }) => (router['routes'] = {})),
      'a route a list': edited(({ router }) => ((router['routes'] as unknown[])[0] = [])),
      'a route flow an object': edited(({ route }) => (route['flow'] = {})),
      'onerror an object': edited(({ routed }) => (routed['onerror'] = {})),
      'filter a string': edited(({ routed }) => (routed['filter'] = 'x')),
      'a module nested in a route a number': edited(({ route }) => (route['flow'] as unknown[]).push(3)),
      'branches an object': edited(({ trigger }) => (trigger['branches'] = {})),
      'a branch a list': edited(({ trigger }) => (trigger['branches'] = [[]])),
      'a branch flow an object': edited(({ trigger }) => (trigger['branches'] = [{ flow: {} }])),
      'a module in a branch without module': edited(({ trigger }) => (trigger['branches'] = [{ flow: [{ id: 9 }] }])),
      'tools a string': edited(({ trigger }) => (trigger['tools'] = 'x')),
      'a tool flow a number': edited(({ trigger }) => (trigger['tools'] = [{ flow: 1 }])),
      'an orphan with a bad id': edited(({ b }) => {
        (b['metadata'] as Obj)['designer'] = { orphans: [[{ id: 'x', module: 'a:b' }]] };
      }),
    };
    for (const [name, b] of Object.entries(cases)) {
      assert.equal(parseBlueprint(b).ok, false, `${name}: the engine accepts it`);
      assert.equal(blueprintSchema(b), false, `${name}: the schema accepts it`);
    }
  });
});

describe('documented request bodies ↔ compiled validators', () => {
  const validators = compileValidators();
  const evaluateDoc = schema('EvaluateRequest');
  /** What the server accepts for POST /evaluate before looking ids up: the compiled schema, then the route's checks (one form; each blueprint's `flow` an array). */
  const serverAccepts = (body: Record<string, unknown>) =>
    validators.evaluate(body) &&
    ('scenario_ids' in body ? 1 : 0) + ('blueprints' in body ? 1 : 0) === 1 &&
    ((body['blueprints'] as Record<string, unknown>[] | undefined) ?? []).every((b) => Array.isArray(b['flow']));

  it('POST /evaluate: the oneOf accepts exactly the bodies the server accepts', () => {
    const b = sample();
    const bodies: Record<string, Record<string, unknown>> = {
      'stored ids': { scenario_ids: ['a', 'b'] },
      'stored ids with org_id': { scenario_ids: ['a'], org_id: 'org-1' },
      blueprints: { blueprints: [b, b] },
      'blueprints with org_id': { blueprints: [b], org_id: 'org-1' },
      'an unknown member': { scenario_ids: ['a'], note: 'x' },
      both: { scenario_ids: ['a'], blueprints: [b] },
      neither: { org_id: 'org-1' },
      'no ids': { scenario_ids: [] },
      'eleven ids': { scenario_ids: Array.from({ length: 11 }, (_, i) => `s${i}`) },
      'an id with a slash': { scenario_ids: ['a/b'] },
      'no blueprints': { blueprints: [] },
      'eleven blueprints': { blueprints: Array.from({ length: 11 }, () => b) },
      'a blueprint a string': { blueprints: ['x'] },
      'a blueprint without flow': { blueprints: [{ name: 'x' }] },
      'org_id empty': { scenario_ids: ['a'], org_id: '' },
    };
    for (const [name, body] of Object.entries(bodies))
      assert.equal(evaluateDoc(body), serverAccepts(body), `${name}: ${errorsOf(evaluateDoc)}`);
  });

  it('POST /evaluate/inline and POST /results/fetch: the documented schemas accept what the validators accept', () => {
    const inlineDoc = schema('InlineEvaluationRequest');
    const b = sample();
    const inline: Record<string, unknown>[] = [
      { blueprint: b },
      { blueprint: b, include_remediation: true, save_to_workspace: true, scenario_id: 'mine' },
      { blueprint: b, scenario_id: 'a:b' },
      { blueprint: b, include_remediation: 'yes' },
      { include_remediation: true },
      { blueprint: 'x' },
    ];
    for (const body of inline)
      assert.equal(
        inlineDoc(body),
        validators.inline(body),
        `${JSON.stringify(body).slice(0, 80)}: ${errorsOf(inlineDoc)}`,
      );
    const fetchDoc = schema('ResultsFetchRequest');
    for (const body of [{ result_token: 'x' }, { result_token: '' }, {}, { result_token: 'y'.repeat(4097) }])
      assert.equal(fetchDoc(body), validators.fetch(body), JSON.stringify(body).slice(0, 40));
  });

  it('POST /governance/rules: CustomRuleBody (2020-12) accepts exactly what the compiled draft-07 schema accepts', () => {
    const compiled = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(CUSTOM_RULE_SCHEMA);
    const documented = schema('CustomRuleBody');
    const rule = (match: unknown, extra: Record<string, unknown> = {}) => ({
      title: 'No raw HTTP',
      severity: 'low',
      category: 'SEC',
      remediation: 'Use the app module.',
      match,
      ...extra,
    });
    const bodies: unknown[] = [
      rule({ app: 'http' }),
      rule({ all: [{ app: ['http', 'webhook'] }, { not: { has_error_handler: true } }] }),
      rule({
        any: [
          { field: '/mapper/url', matches: '^http:' },
          { value_from: 'untrusted', field: '/mapper/url' },
        ],
      }),
      rule({ field: '/mapper/url', domain_not_in: ['*.example.com'] }, { status: 'warn' }),
      rule({ app: 'http' }, { compliance_frameworks: [{ framework: 'SOC 2', control: 'CC6.1' }] }),
      rule({ value_from: 'personal' }),
      rule({ all: [{ field: '/parameters/x', equals: 3 }, { is_trigger: true }, { followed_by_filter: false }] }),
      rule({ module: ['http:ActionSendData'] }),
      rule({ app: 'http' }, { code: 'ORG-1' }),
      rule({ value_from: 'personal', app: 'http' }),
      rule({ field: '/mapper/url', matches: 'x', extra: 1 }),
      rule({ is_trigger: 'yes' }),
      rule({}),
      rule({ field: '/mapper/url', present: true, absent: true }),
      rule({ field: '/x' }),
      rule({ all: [] }),
      rule({ not: { app: '' } }),
      rule({ app: 'http', module: 'x' }),
      rule({ app: 'http' }, { severity: 'urgent' }),
      { title: 'x' },
    ];
    const accepted = bodies.map((body) => {
      const ok = compiled(body);
      assert.equal(documented(body), ok, `${JSON.stringify(body).slice(0, 120)}: ${errorsOf(documented)}`);
      return ok;
    });
    assert.deepEqual(accepted, [true, true, true, true, true, true, true, true, ...Array<boolean>(12).fill(false)]);
  });
});
