/**
 * Every corpus blueprint through POST /evaluate/inline, the repository's fixtures and the real `make`
 * corpus when it is here: a well-formed 200, and every recorded credential reported on its module.
 */
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { InlineResult, Reply } from '../../src/client/responses.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf } from '../helpers/assertions.js';
import { corpusFacts, corpusText, eachCorpus, jsonPathToPointer } from '../helpers/corpus.js';

const SECURITY = /^SEC-/;

describe('corpus through the API', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ env: { POOL_THREADS: '2' } });
  });
  after(() => t.close());

  eachCorpus('every blueprint', ['fixtures', 'make'], (corpus, { it }) => {
    it('answers 200 with a well-formed result and its recorded credentials reported, for each blueprint', async (c) => {
      const facts = corpusFacts(corpus);
      if (corpus === 'make') assert.equal(facts.length, 50);
      for (const f of facts)
        await c.test(f.file, async () => {
          const res = await t.client.call<Reply<InlineResult>>('POST', '/evaluate/inline', undefined, {
            rawBody: `{"blueprint":${corpusText(f.file, corpus).replace(/^\uFEFF/, '')}}`,
          });
          assert.equal(res.status, 200, res.raw.slice(0, 500));
          const d = dataOf(res);
          assert.equal(typeof d.scenario.name, 'string');
          assert.ok(Number.isInteger(d.scenario.score) && d.scenario.score >= 0 && d.scenario.score <= 100);
          assert.equal(d.passing_count + d.failing_count, d.evaluated_codes.length);
          assert.ok(d.module_graph.nodes.length >= 1);
          const nodeIds = new Set(d.module_graph.nodes.map((n) => n.module_id));
          for (const e of d.module_graph.edges) assert.ok(nodeIds.has(e.from) && nodeIds.has(e.to), JSON.stringify(e));
          for (const v of d.violations) {
            assert.ok(['fail', 'warn'].includes(v.status));
            for (const fm of v.failing_modules) {
              assert.ok(nodeIds.has(fm.module_id), `${v.policy} names an unknown module ${fm.module_id}`);
              assert.equal(typeof fm.reason, 'string');
            }
          }
          const securityEvidence = d.violations
            .filter((v) => SECURITY.test(v.policy))
            .flatMap((v) => v.failing_modules.map((fm) => fm.evidence?.pointer ?? ''));
          for (const c of f.credentials) {
            const pointer = jsonPathToPointer(c.path);
            assert.ok(securityEvidence.includes(pointer), `credential ${c.kind} at ${c.path} not reported`);
          }
          const sec1 = d.violations.find((v) => v.policy === 'SEC-1');
          for (const p of f.placeholder_credentials) {
            assert.ok(
              !(sec1?.failing_modules ?? []).some((fm) => fm.evidence?.pointer === jsonPathToPointer(p)),
              `placeholder at ${p} reported as a leaked secret`,
            );
          }
          for (const p of f.plain_http) {
            const sec3 = d.violations.find((v) => v.policy === 'SEC-3');
            assert.ok(
              (sec3?.failing_modules ?? []).some((fm) => fm.evidence?.pointer === jsonPathToPointer(p)),
              `plain http at ${p} not reported`,
            );
          }
          for (const secret of f.credentials)
            assert.ok(
              !res.raw.includes('?auth=') || !/\?auth=[A-Za-z0-9]{40}/.test(res.raw),
              `secret echoed for ${secret.path}`,
            );
        });
    });
  });
});
