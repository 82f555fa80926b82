// Evaluates blueprints with the SDK (@gov/sdk), as a tenant's Node service would.
//
//   GOV_URL=http://127.0.0.1:8080 GOV_API_KEY=gov_live_... GOV_SIGNING_SECRET=gov_sig_... \
//     node examples/evaluate.mjs examples/order-intake.blueprint.json [more.blueprint.json ...]
//
// Without GOV_API_KEY it reads the demo credentials from DATA_DIR/bootstrap.json (default ./data), which the
// service writes on its first start. One file: a synchronous inline evaluation (POST /evaluate/inline).
// Several: one ephemeral batch (POST /evaluate with blueprints[]), polled with the spec's cadence.
// Exit code: 0 without critical findings, 1 with some, 2 on a usage or API error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GovernanceApiError, GovernanceClient } from '@gov/sdk';

function credentials() {
  if (process.env.GOV_API_KEY && process.env.GOV_SIGNING_SECRET)
    return { apiKey: process.env.GOV_API_KEY, signingSecret: process.env.GOV_SIGNING_SECRET };
  const file = join(process.env.DATA_DIR || './data', 'bootstrap.json');
  const demo = JSON.parse(readFileSync(file, 'utf8'));
  return { apiKey: demo.api_key, signingSecret: demo.signing_secret };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node examples/evaluate.mjs <blueprint.json> [...]\n');
  process.exit(2);
}
const gov = new GovernanceClient({ baseUrl: process.env.GOV_URL || 'http://127.0.0.1:8080', ...credentials() });
const blueprints = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));

try {
  let critical = 0;
  if (blueprints.length === 1) {
    const { data } = await gov.evaluateInline({ blueprint: blueprints[0] });
    console.log(`${files[0]}: ${data.scenario.name}, score ${data.scenario.score}/100`);
    for (const v of data.violations) {
      console.log(`  ${v.severity.padEnd(8)} ${v.policy.padEnd(7)} ${v.title}`);
      if (v.severity === 'critical') critical++;
    }
  } else {
    const submitted = (await gov.submitEvaluation({ blueprints })).data;
    const final = await gov.waitForEvaluation(submitted);
    if (final.status !== 'complete') throw new Error(`evaluation ${final.evaluation_id} ended in ${final.status}`);
    for (const [i, s] of (final.scenarios ?? []).entries()) {
      console.log(`${files[i]}: ${s.name}, score ${s.score}/100, ${s.violations} violations, ${s.critical} critical`);
      critical += s.critical;
    }
  }
  process.exitCode = critical > 0 ? 1 : 0;
} catch (err) {
  if (!(err instanceof GovernanceApiError)) throw err;
  process.stderr.write(`${err.status} ${err.error}${err.requestId ? ` (request ${err.requestId})` : ''}\n`);
  for (const d of err.detail) process.stderr.write(`  ${d.path}: ${d.message}\n`);
  process.exitCode = 2;
}
