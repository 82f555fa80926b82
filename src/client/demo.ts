/**
 * @module client/demo: `npm run demo [-- blueprint.json]`: the typical flow of spec §1 against a
 * running service with the SDK (`@gov/sdk`), signed like a customer's server, with a readable report.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GovernanceApiError, GovernanceClient, GovernanceError, type InlineEvaluationBody } from '@gov/sdk';

const BADGE: Readonly<Record<string, string>> = {
  critical: '[CRIT]',
  high: '[HIGH]',
  medium: '[MED] ',
  low: '[LOW] ',
  info: '[INFO]',
};

/** Bootstrap credentials the service writes on first start (`DATA_DIR/bootstrap.json`). */
interface Bootstrap {
  readonly org_id: string;
  readonly api_key: string;
  readonly signing_secret: string;
  readonly scenario_ids: readonly string[];
}

/**
 * The blueprint of `npm run demo -- <file>`, read and parsed before anything else (issue 30: a broken
 * file is named with its JSON error before any request). @throws Error naming the file when it cannot
 * be read or is not JSON.
 */
function readBlueprint(file: string): InlineEvaluationBody['blueprint'] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return JSON.parse(text) as InlineEvaluationBody['blueprint'];
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function main(): Promise<void> {
  const file = process.argv[2];
  const blueprint = file === undefined ? undefined : readBlueprint(file);
  const dataDir = resolve(process.env['DATA_DIR'] || './data');
  const base =
    process.env['GOV_URL'] || `http://${process.env['HOST'] || '127.0.0.1'}:${process.env['PORT'] || '8080'}`;
  let creds: Bootstrap;
  try {
    creds = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  } catch {
    throw new Error(`no ${join(dataDir, 'bootstrap.json')}: start the service once with "npm start" first`);
  }
  const gov = new GovernanceClient({ baseUrl: base, apiKey: creds.api_key, signingSecret: creds.signing_secret });
  const out = (s = '') => process.stdout.write(`${s}\n`);

  out(`Governance Evaluation Service demo against ${base}`);
  out(`\n1. POST /evaluate with the stored scenarios ${creds.scenario_ids.join(', ')}`);
  const submit = await gov.submitEvaluation({ scenario_ids: [...creds.scenario_ids] });
  const submitted = submit.data;
  out(
    `   evaluation ${submitted.evaluation_id} is ${submitted.status}; watermark ${submit.meta.watermark}; rate limit remaining ${submit.headers.get('x-ratelimit-remaining')}`,
  );

  out("\n2. Poll GET /evaluations/{id} until terminal (the spec's cadence: every 2 s)");
  const final = await gov.waitForEvaluation(submitted);
  out(`   status ${final.status}, ${final.completed}/${final.total_scenarios} scenarios`);
  for (const s of final.scenarios ?? []) {
    out(
      `   - ${s.name} (${s.id}): score ${s.score}/100, ${s.violations} violations, ${s.critical} critical${s.error ? `, error: ${s.error}` : ''}`,
    );
  }

  out('\n3. GET /scenarios/{id}/results for each scenario');
  let firstViolation: string | null = null;
  for (const id of creds.scenario_ids) {
    const d = (await gov.getScenarioResults(id)).data;
    out(
      `\n   ${d.scenario_name}  score ${d.score ?? '-'}  (${d.failing_count} failing / ${d.passing_count} passing policies)`,
    );
    for (const v of d.violations) {
      out(`     ${BADGE[v.severity] ?? v.severity} ${v.policy} ${v.title} (${v.status}): ${v.summary}`);
      for (const m of v.failing_modules.slice(0, 3))
        out(`            module ${m.module_id} "${m.module_name}": ${m.reason}`);
      firstViolation ??= `${id}:${v.policy}`;
    }
    if (d.compliance_gaps?.length) out(`     compliance gaps: ${d.compliance_gaps.join(', ')}`);
  }

  if (firstViolation) {
    out(`\n4. GET /violations/${firstViolation}/remediation (500 "Remediation generation failed" is retried)`);
    const r = (await gov.getRemediation(firstViolation)).data;
    out(
      `   severity ${r.severity}, effort ${r.estimated_effort}, frameworks ${r.compliance_frameworks.map((f) => `${f.framework} ${f.control ?? f.article}`).join('; ')}`,
    );
    r.steps.forEach((s: string, i: number) => out(`   ${i + 1}. ${s}`));
  }

  out('\n5. POST /results/fetch: redeem the result token once');
  const results = await gov.results(submitted);
  out(
    `   first redemption: ${results.status}, ${results.status === 'complete' ? results.scenarios.length : 0} scenarios returned`,
  );
  try {
    await gov.results(submitted);
    out('   second redemption: accepted (unexpected)');
  } catch (err) {
    if (!(err instanceof GovernanceApiError)) throw err;
    out(`   second redemption: ${err.status} ${err.error}`);
  }

  if (file !== undefined && blueprint !== undefined) {
    out(`\n6. POST /evaluate/inline with ${file}`);
    try {
      const d = (await gov.evaluateInline({ blueprint, include_remediation: true })).data;
      out(
        `   ${d.scenario.name}: score ${d.scenario.score}/100, ${d.violations.length} violations, ${d.module_graph.nodes.length} modules`,
      );
      for (const v of d.violations) out(`     ${BADGE[v.severity] ?? v.severity} ${v.policy} ${v.title}: ${v.summary}`);
    } catch (err) {
      if (!(err instanceof GovernanceApiError)) throw err;
      out(`   ${err.status} ${err.error}: ${JSON.stringify(err.detail)}`);
    }
  }
  out('\nDone.');
}

main().catch((err: unknown) => {
  // One line, never a stack trace: a JSON error can quote a line break of the file.
  let message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ');
  if (err instanceof GovernanceError && err.kind !== 'api')
    message += '. Is the service running? Start it with "npm start", or point GOV_URL (or PORT) at it';
  process.stderr.write(`demo failed: ${message}\n`);
  process.exit(1);
});
