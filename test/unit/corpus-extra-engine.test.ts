/**
 * The make-extra corpus (25 hard cases, issue 14) through the engine, beside the `make` one: every
 * file evaluates, every recorded credential is reported by SEC-1 at its JSON path and nothing else
 * (12 of its 13 credentials have no well-known prefix), placeholders never, and SEC-3 reports the
 * recorded `http://` strings that are addresses but not a literal inside an expression.
 */
import assert from 'node:assert/strict';
import { evaluateBlueprint, type ScenarioEvaluation } from '../../src/engine/index.js';
import { scanForSecrets } from '../../src/engine/secrets/scan.js';
import { placesOf } from '../helpers/policy-assert.js';
import {
  UNRECORDED_CREDENTIALS,
  corpusFacts,
  corpusJson,
  corpusSuite,
  jsonPathToPointer,
  valueAt,
  type CorpusFacts,
} from '../helpers/corpus.js';

corpusSuite('the make-extra corpus through the engine', ['make-extra'], ({ it, before }) => {
  let facts: CorpusFacts[] = [];
  const results = new Map<string, ScenarioEvaluation>();
  const refused = new Map<string, string>();
  before(() => {
    facts = corpusFacts('make-extra');
    for (const f of facts) {
      const r = evaluateBlueprint(corpusJson(f.file, 'make-extra'), { scenarioId: f.file });
      if (r.ok) results.set(f.file, r.evaluation);
      else refused.set(f.file, `${r.error.code} ${r.error.issues?.[0]?.pointer ?? ''} ${r.error.message}`);
    }
  });
  const evidence = (file: string, code: string) =>
    (results.get(file)!.violations.find((v) => v.policy === code)?.failing_modules ?? []).map(
      (m) => m.evidence?.pointer ?? '',
    );

  // Fails until custom-app module names (`app#courageousteams-614494:getOrder`, stdok) parse: issue 14 item 6.
  it('evaluates all 25 make-extra blueprints without an engine or policy error', () => {
    assert.equal(facts.length, 25);
    assert.deepEqual([...refused.entries()], []);
    for (const ev of results.values()) assert.deepEqual(ev.policy_errors, []);
  });

  it('reports every recorded credential at its JSON path (SEC-1, a finding or one of its places), nothing else, and no placeholder', () => {
    assert.equal(
      facts.reduce((n, f) => n + f.credentials.length, 0),
      13,
    );
    for (const f of facts.filter((x) => results.has(x.file))) {
      // One finding per credential (issue 32): its copies are the finding's `locations`.
      const reported = placesOf(corpusJson(f.file, 'make-extra'), 'SEC-1');
      for (const p of evidence(f.file, 'SEC-1')) assert.ok(reported.includes(p), `${f.file}: ${p}`);
      for (const c of f.credentials)
        assert.ok(reported.includes(jsonPathToPointer(c.path)), `${f.file}: ${c.kind} at ${c.path}`);
      for (const p of f.placeholder_credentials)
        assert.ok(!reported.includes(jsonPathToPointer(p)), `${f.file}: placeholder ${p} reported`);
      const expected = [...f.credentials, ...(UNRECORDED_CREDENTIALS['make-extra'][f.file] ?? [])].map((c) =>
        jsonPathToPointer(c.path),
      );
      assert.deepEqual(
        reported.sort(),
        expected.sort(),
        `${f.file}: SEC-1 findings differ from the recorded credentials`,
      );
    }
  });

  it('finds the credential of every refused file with the scanner itself (stdok: a UUID-shaped token in ?token=)', () => {
    for (const f of facts.filter((x) => refused.has(x.file))) {
      const blueprint: unknown = corpusJson(f.file, 'make-extra');
      for (const c of f.credentials) {
        const value = valueAt(blueprint, c.path);
        assert.equal(typeof value, 'string', `${f.file}: ${c.path}`);
        assert.notDeepEqual(
          scanForSecrets(value as string, c.path.split('.').pop()!),
          [],
          `${f.file}: ${c.kind} at ${c.path}`,
        );
      }
    }
  });

  it('reports recorded plain-http addresses (SEC-3) but not an http:// literal inside an expression', () => {
    for (const f of facts.filter((x) => results.has(x.file))) {
      const blueprint: unknown = corpusJson(f.file, 'make-extra');
      for (const p of f.plain_http) {
        const address = String(valueAt(blueprint, p)).trimStart().toLowerCase().startsWith('http://');
        assert.equal(evidence(f.file, 'SEC-3').includes(jsonPathToPointer(p)), address, `${f.file}: ${p}`);
      }
    }
  });

  it('every SEC-1 finding on this corpus is high or critical and names its credential, but a PDF password', () => {
    for (const ev of results.values()) {
      for (const m of ev.violations.find((v) => v.policy === 'SEC-1')?.failing_modules ?? []) {
        const expected = /ownerPassword/.test(m.reason) ? ['medium'] : ['high', 'critical'];
        assert.ok(expected.includes(m.severity), `${m.severity}: ${m.reason}`);
        assert.match(m.evidence?.value ?? '', /REDACTED/);
      }
    }
  });
});
