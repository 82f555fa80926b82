/**
 * Every blueprint of a corpus through the engine, on the repository's fixtures and on the real `make`
 * corpus when it is here: no engine error, every recorded fact reported by its policy (recall 100%),
 * placeholders and mapped values never reported as secrets, and per-policy hit counts printed so
 * false-positive storms are visible.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { evaluateBlueprint, POLICIES, type ScenarioEvaluation } from '../../src/engine/index.js';
import { placesOf } from '../helpers/policy-assert.js';
import {
  REAL_CORPUS_SIZE,
  UNRECORDED_CREDENTIALS,
  corpusDir,
  corpusFacts,
  corpusText,
  eachCorpus,
  jsonPathToPointer,
  type CorpusFacts,
  type CorpusName,
} from '../helpers/corpus.js';

/** Credentials the real corpus records (its facts.json), so that a truncated copy fails. */
const CREDENTIALS: Readonly<Partial<Record<CorpusName, number>>> = { make: 31 };

eachCorpus('corpus through the engine', ['fixtures', 'make'], (corpus, { it, before }) => {
  let facts: CorpusFacts[] = [];
  const results = new Map<string, ScenarioEvaluation>();
  // Every place of every SEC-1 finding (one finding per credential, issue 32: its copies are its `locations`).
  const sec1Places = new Map<string, string[]>();
  before(() => {
    facts = corpusFacts(corpus);
    for (const f of facts) {
      const blueprint: unknown = JSON.parse(corpusText(f.file, corpus).replace(/^\uFEFF/, ''));
      const r = evaluateBlueprint(blueprint, { scenarioId: f.file });
      if (r.ok) results.set(f.file, r.evaluation);
      sec1Places.set(f.file, placesOf(blueprint, 'SEC-1'));
    }
  });
  const violation = (file: string, code: string) => results.get(file)!.violations.find((v) => v.policy === code);
  const evidence = (file: string, code: string) =>
    (violation(file, code)?.failing_modules ?? []).map((m) => m.evidence?.pointer ?? '');

  it('has facts for every blueprint of the folder, and evaluates each without an engine or policy error', () => {
    const files = readdirSync(corpusDir(corpus)).filter((f) => f.endsWith('.blueprint.json'));
    assert.deepEqual(facts.map((f) => f.file).sort(), files.sort());
    if (corpus !== 'fixtures') assert.equal(facts.length, REAL_CORPUS_SIZE[corpus]);
    for (const f of facts) {
      assert.ok(results.has(f.file), `${f.file} was rejected`);
      assert.deepEqual(results.get(f.file)!.policy_errors, [], f.file);
    }
  });

  it('reports every recorded hard-coded credential at its JSON path (SEC-1, a finding or one of its places) and no placeholder', () => {
    let n = 0;
    for (const f of facts) {
      const places = sec1Places.get(f.file)!;
      // The evaluation reports each credential once, at the first of its places.
      for (const p of evidence(f.file, 'SEC-1')) assert.ok(places.includes(p), `${f.file}: ${p}`);
      for (const c of f.credentials) {
        n++;
        assert.ok(places.includes(jsonPathToPointer(c.path)), `${f.file}: ${c.kind} at ${c.path}`);
      }
      for (const p of f.placeholder_credentials)
        assert.ok(!places.includes(jsonPathToPointer(p)), `${f.file}: placeholder ${p} reported`);
      // Precision: on this corpus every SEC-1 finding is a recorded credential (the fakes keep each secret's format),
      // or one found by review that facts.json lacks (UNRECORDED_CREDENTIALS, each with its reason).
      const expected = [...f.credentials, ...(UNRECORDED_CREDENTIALS[corpus][f.file] ?? [])].map((c) =>
        jsonPathToPointer(c.path),
      );
      assert.deepEqual(
        [...places].sort(),
        expected.sort(),
        `${f.file}: SEC-1 findings differ from the recorded credentials`,
      );
    }
    if (CREDENTIALS[corpus] !== undefined) assert.equal(n, CREDENTIALS[corpus]);
    else assert.ok(n > 0, 'the fixtures record credentials');
  });

  it('reports every recorded plain-http URL (SEC-3)', () => {
    for (const f of facts)
      for (const p of f.plain_http)
        assert.ok(evidence(f.file, 'SEC-3').includes(jsonPathToPointer(p)), `${f.file}: ${p}`);
  });

  it('checks every recorded webhook trigger (SEC-5 reports the unverified ones on the trigger module)', () => {
    for (const f of facts.filter((x) => x.webhook_trigger)) {
      const v = violation(f.file, 'SEC-5');
      if (f.webhook_verified) {
        // A filter checks a shared secret before anything runs: the trigger is not reported as open to anyone.
        assert.ok(!v?.failing_modules.some((m) => m.severity === 'high'), `${f.file}: verified webhook reported high`);
        continue;
      }
      assert.ok(v, `${f.file}: webhook trigger not reported`);
      assert.match(v.failing_modules[0]!.module_type, /^gateway:Custom(?:Web|Mail)Hook$/);
    }
    for (const f of facts.filter((x) => !x.webhook_trigger)) {
      const v = violation(f.file, 'SEC-5');
      if (v) assert.match(v.failing_modules[0]!.module_type, /^gateway:Custom(?:Web|Mail)Hook$/);
    }
  });

  it('lists every recorded AI module under an AI policy (AI-7 inventory) and never a non-AI one', () => {
    for (const f of facts) {
      const listed = evidence(f.file, 'AI-7');
      for (const p of f.ai_modules) assert.ok(listed.includes(jsonPathToPointer(p)), `${f.file}: AI module ${p}`);
      assert.equal(
        listed.length,
        f.ai_modules.length,
        `${f.file}: AI-7 lists ${listed.length}, facts record ${f.ai_modules.length}`,
      );
    }
  });

  it('sees every recorded error handler: handled modules are never reported by DI-1, except for the errors a filtered error route leaves out', () => {
    for (const f of facts) {
      const ev = results.get(f.file)!;
      const hasErrorEdges = ev.module_graph.edges.some((e) => e.kind === 'error');
      assert.equal(hasErrorEdges, f.error_handlers, f.file);
      const handled = new Set(ev.module_graph.edges.filter((e) => e.kind === 'error').map((e) => e.from));
      // Make Help, Advanced error handling: an error that does not pass the error route's filter is treated as unhandled.
      for (const m of violation(f.file, 'DI-1')?.failing_modules ?? []) {
        if (handled.has(m.module_id))
          assert.match(
            m.reason,
            /handles only the errors its error route's filter/,
            `${f.file}: DI-1 reports handled module ${m.module_id}`,
          );
      }
    }
  });

  it('reports the recorded scenario flags: dlq off (DI-3), dlq on never, dataloss on (DI-4), confidential with personal data (PRIV-3)', () => {
    for (const f of facts) {
      if (f.flags['dlq'] === 'true') assert.equal(violation(f.file, 'DI-3'), undefined, f.file);
      else assert.ok(violation(f.file, 'DI-3'), `${f.file}: dlq=${f.flags['dlq']}`);
      assert.equal(Boolean(violation(f.file, 'DI-4')), f.flags['dataloss'] === 'true', f.file);
      if (f.flags['confidential'] === 'true') assert.equal(violation(f.file, 'PRIV-3'), undefined, f.file);
    }
  });

  it('prints per-policy hit counts (scenarios / findings)', (t) => {
    const lines = POLICIES.map((p) => {
      let scenarios = 0;
      let findings = 0;
      for (const ev of results.values()) {
        const v = ev.violations.find((x) => x.policy === p.code);
        if (v) {
          scenarios++;
          findings += Math.max(1, v.failing_modules.length);
        }
      }
      return `${p.code.padEnd(7)} ${String(scenarios).padStart(2)} scenarios ${String(findings).padStart(4)} findings  ${p.title}`;
    });
    for (const l of lines) t.diagnostic(l);
    assert.equal(lines.length, POLICIES.length);
  });
});
