/**
 * The examples of the OpenAPI document (issue 19 §3), captured from a real run by
 * `npm run docs:openapi-examples`: every operation has an example of its success response and, when
 * it takes a body, of its request; every example is valid against the schema beside it (ajv, JSON
 * Schema 2020-12 as OpenAPI 3.1 uses); and every captured operation is one of the document.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { OPERATION_EXAMPLES } from '../../src/server/openapi/examples.js';

interface Media {
  readonly schema: unknown;
  readonly examples?: Readonly<Record<string, { summary?: string; value: unknown }>>;
}
interface Operation {
  readonly operationId: string;
  readonly requestBody?: { content: Record<string, Media> };
  readonly responses: Record<string, { content?: Record<string, Media> }>;
}

const ID = 'https://gov.local/openapi.json';
const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>> };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ ...doc, $id: ID });
/** A validator of the schema at `tokens` of the document (RFC 6901, each token escaped and URI-encoded). */
const validatorAt = (tokens: readonly string[]) => {
  const pointer = tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
  const validate = ajv.getSchema(`${ID}#/${pointer}`);
  assert.ok(validate, pointer);
  return validate;
};
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })),
);

describe('OpenAPI examples', () => {
  it('gives every operation an example of its success response and of its request body', () => {
    assert.ok(operations.length >= 42, `${operations.length} operations`); // the 42 of issue 19; more may come
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path} (${op.operationId})`;
      const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s))!;
      const media = op.responses[success]?.content?.['application/json'];
      assert.ok(Object.keys(media?.examples ?? {}).length > 0, `${where}: no ${success} example`);
      if (op.requestBody)
        assert.ok(
          Object.keys(op.requestBody.content['application/json']?.examples ?? {}).length > 0,
          `${where}: no request example`,
        );
    }
  });

  it('keeps every example valid against the schema beside it', () => {
    let checked = 0;
    for (const { path, method, op } of operations) {
      const medias: [string[], Media | undefined][] = [
        [['requestBody', 'content', 'application/json'], op.requestBody?.content['application/json']],
        ...Object.entries(op.responses).map(([status, r]): [string[], Media | undefined] => [
          ['responses', status, 'content', 'application/json'],
          r.content?.['application/json'],
        ]),
      ];
      for (const [at, media] of medias) {
        if (!media?.examples) continue;
        const validate = validatorAt(['paths', path, method, ...at, 'schema']);
        for (const [name, example] of Object.entries(media.examples)) {
          assert.ok(example.summary, `${op.operationId} ${name}: no summary`);
          assert.ok(
            validate(example.value),
            `${op.operationId} ${at.join(' ')} ${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
          );
          checked++;
        }
      }
    }
    const least = operations.length + operations.filter((o) => o.op.requestBody).length;
    assert.ok(checked >= least, `${checked} examples checked, fewer than the ${least} required`);
  });

  it('captures only operations of the document', () => {
    const ids = new Set(operations.map((o) => o.op.operationId));
    for (const id of Object.keys(OPERATION_EXAMPLES)) assert.ok(ids.has(id), `${id} is no operation`);
  });
});
