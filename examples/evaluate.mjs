// Evaluates blueprints with the SDK (@gov/sdk), as a tenant's Node service would.
//
//   GOV_URL=http://127.0.0.1:8080 GOV_API_KEY=gov_live_... GOV_SIGNING_SECRET=gov_sig_... \
//     node examples/evaluate.mjs examples/order-intake.blueprint.json [more.blueprint.json ...]
//
// The service: GOV_URL, else http://127.0.0.1:$PORT (the port `npm start` and `npm run demo` use), else
// http://127.0.0.1:8080. Without GOV_API_KEY it reads the demo credentials from DATA_DIR/bootstrap.json
// (default ./data), which the service writes on its first start. One file: a synchronous inline evaluation
// (POST /evaluate/inline). Several: one ephemeral batch (POST /evaluate with blueprints[]), polled with the
// spec's cadence. Every file is read and parsed before the first request.
// Exit code: 0 without critical findings, 1 with some, 2 on a usage, input, connection or API error (one line
// on stderr, plus the field errors of a 422).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GovernanceApiError, GovernanceClient, GovernanceError } from '@gov/sdk';

/** Ends the run with exit code 2 and `message` as one line on stderr. */
function fail(message) {
  process.stderr.write(`evaluate: ${message.replace(/\s+/g, ' ')}\n`);
  process.exit(2);
}

/** The parsed JSON of `file`; a file that cannot be read or is not JSON ends the run (exit 2). */
function readJson(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(`cannot read ${file}: ${err.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    fail(`${file} is not valid JSON: ${err.message}`);
  }
}

function credentials() {
  const { GOV_API_KEY: apiKey, GOV_SIGNING_SECRET: signingSecret } = process.env;
  if (apiKey && signingSecret) return { apiKey, signingSecret };
  if (apiKey || signingSecret) fail('set both GOV_API_KEY and GOV_SIGNING_SECRET (or neither, for the demo key)');
  const file = join(process.env.DATA_DIR || './data', 'bootstrap.json');
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(
      `no demo credentials: cannot read ${file} (${err.code ?? err.message}). Start the service once with "npm start" ` +
        '(its first start writes that file; set DATA_DIR if it uses another directory), or set GOV_API_KEY and GOV_SIGNING_SECRET',
    );
  }
  let demo;
  try {
    demo = JSON.parse(text);
  } catch (err) {
    fail(`${file} is not valid JSON: ${err.message}`);
  }
  return { apiKey: demo.api_key, signingSecret: demo.signing_secret };
}

const files = process.argv.slice(2);
if (files.length === 0) fail('usage: node examples/evaluate.mjs <blueprint.json> [...]');
const blueprints = files.map(readJson);
const baseUrl = process.env.GOV_URL || `http://127.0.0.1:${process.env.PORT || '8080'}`;
if (!URL.canParse(baseUrl)) fail(`GOV_URL "${baseUrl}" is not a URL (for example http://127.0.0.1:8080)`);
const gov = new GovernanceClient({ baseUrl, ...credentials() });

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
    if (final.status !== 'complete') fail(`evaluation ${final.evaluation_id} ended in ${final.status}`);
    for (const [i, s] of (final.scenarios ?? []).entries()) {
      console.log(`${files[i]}: ${s.name}, score ${s.score}/100, ${s.violations} violations, ${s.critical} critical`);
      critical += s.critical;
    }
  }
  process.exitCode = critical > 0 ? 1 : 0;
} catch (err) {
  if (err instanceof GovernanceApiError) {
    process.stderr.write(`${err.status} ${err.error}${err.requestId ? ` (request ${err.requestId})` : ''}\n`);
    for (const d of err.detail) process.stderr.write(`  ${d.path}: ${d.message}\n`);
    process.exitCode = 2;
  } else if (err instanceof GovernanceError) {
    // No answer (a refused connection, a reset, a timeout) after the SDK's retries.
    fail(`${err.message}. Is the service running? Start it with "npm start", or point GOV_URL (or PORT) at it`);
  } else throw err;
}
