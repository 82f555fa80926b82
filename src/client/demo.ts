/**
 * @module client/demo: `npm run demo [-- blueprint.json]`: the typical flow of spec §1 against a
 * running service, signed like a customer's server, with a readable report.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GovernanceClient, pollEvaluation, type ClientResponse } from './client.js';
import type {
  EvaluationStatus,
  InlineResult,
  Remediation,
  Reply,
  ResultsFetch,
  ScenarioResults,
  SubmitResult,
} from './responses.js';

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

/** The `data` of a success; @throws Error naming the step, with the status and raw body, otherwise. */
function dataOf<T>(res: ClientResponse<Reply<T>>, step: string): T {
  if (!res.body.ok) throw new Error(`${step} failed: ${res.status} ${res.raw}`);
  return res.body.data;
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env['DATA_DIR'] || './data');
  const base =
    process.env['GOV_URL'] || `http://${process.env['HOST'] || '127.0.0.1'}:${process.env['PORT'] || '8080'}`;
  let creds: Bootstrap;
  try {
    creds = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  } catch {
    throw new Error(`no ${join(dataDir, 'bootstrap.json')}: start the service once with "npm start" first`);
  }
  const client = new GovernanceClient(base, { apiKey: creds.api_key, signingSecret: creds.signing_secret });
  const out = (s = '') => process.stdout.write(`${s}\n`);

  out(`Governance Evaluation Service demo against ${base}`);
  out(`\n1. POST /evaluate with the stored scenarios ${creds.scenario_ids.join(', ')}`);
  const submit = await client.call<Reply<SubmitResult>>('POST', '/evaluate', { scenario_ids: creds.scenario_ids });
  if (submit.status !== 200 || !submit.body.ok) throw new Error(`submit failed: ${submit.status} ${submit.raw}`);
  const { evaluation_id: evaluationId, result_token: token, status } = submit.body.data;
  out(
    `   evaluation ${evaluationId} is ${status}; watermark ${submit.body.meta.watermark}; rate limit remaining ${String(submit.headers['x-ratelimit-remaining'])}`,
  );

  out('\n2. Poll GET /evaluations/{id} with backoff until terminal');
  const final = dataOf(
    await pollEvaluation<Reply<EvaluationStatus>>(client, evaluationId, { delaysMs: [250, 500, 1000, 2000] }),
    'poll',
  );
  out(`   status ${final.status}, ${final.completed}/${final.total_scenarios} scenarios`);
  for (const s of final.scenarios ?? []) {
    out(
      `   - ${s.name} (${s.id}): score ${s.score}/100, ${s.violations} violations, ${s.critical} critical${s.error ? `, error: ${s.error}` : ''}`,
    );
  }

  out('\n3. GET /scenarios/{id}/results for each scenario');
  let firstViolation: { scenario: string; policy: string } | null = null;
  for (const id of creds.scenario_ids) {
    const d = dataOf(
      await client.call<Reply<ScenarioResults>>('GET', `/scenarios/${encodeURIComponent(id)}/results`),
      'results',
    );
    out(
      `\n   ${d.scenario_name}  score ${d.score ?? '-'}  (${d.failing_count} failing / ${d.passing_count} passing policies)`,
    );
    for (const v of d.violations) {
      out(`     ${BADGE[v.severity] ?? v.severity} ${v.policy} ${v.title} (${v.status}): ${v.summary}`);
      for (const m of v.failing_modules.slice(0, 3))
        out(`            module ${m.module_id} "${m.module_name}": ${m.reason}`);
      firstViolation ??= { scenario: id, policy: v.policy };
    }
    if (d.compliance_gaps?.length) out(`     compliance gaps: ${d.compliance_gaps.join(', ')}`);
  }

  if (firstViolation) {
    out(`\n4. GET /violations/${firstViolation.scenario}:${firstViolation.policy}/remediation`);
    const rem = await client.call<Reply<Remediation>>(
      'GET',
      `/violations/${encodeURIComponent(firstViolation.scenario)}:${firstViolation.policy}/remediation`,
    );
    const r = dataOf(rem, 'remediation');
    out(
      `   severity ${r.severity}, effort ${r.estimated_effort}, frameworks ${r.compliance_frameworks.map((f) => `${f.framework} ${f.control ?? f.article}`).join('; ')}`,
    );
    r.steps.forEach((s: string, i: number) => out(`   ${i + 1}. ${s}`));
  }

  out('\n5. POST /results/fetch: redeem the result token once');
  const first = await client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: token });
  const fetched = first.body.ok && first.body.data.status === 'complete' ? first.body.data.scenarios.length : 0;
  out(`   first redemption: ${first.status}, ${fetched} scenarios returned`);
  // A byte-identical request signed in the same second would be refused as a replay (403); wait for a fresh signature.
  await new Promise((r) => setTimeout(r, 1100));
  const second = await client.call<Reply<ResultsFetch>>('POST', '/results/fetch', { result_token: token });
  out(`   second redemption: ${second.status} ${second.body.ok ? second.body.data.status : second.body.error}`);

  const file = process.argv[2];
  if (file) {
    out(`\n6. POST /evaluate/inline with ${file}`);
    const blueprint: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const inline = await client.call<Reply<InlineResult>>('POST', '/evaluate/inline', {
      blueprint,
      include_remediation: true,
    });
    if (!inline.body.ok) {
      out(`   ${inline.status} ${inline.body.error}: ${JSON.stringify(inline.body.detail)}`);
    } else {
      const d = inline.body.data;
      out(
        `   ${d.scenario.name}: score ${d.scenario.score}/100, ${d.violations.length} violations, ${d.module_graph.nodes.length} modules`,
      );
      for (const v of d.violations) out(`     ${BADGE[v.severity] ?? v.severity} ${v.policy} ${v.title}: ${v.summary}`);
    }
  }
  out('\nDone.');
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
