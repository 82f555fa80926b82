/** `gov scan` as a user runs it: the real CLI in a child process, every format, exit codes, SARIF against the 2.1.0 schema. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG_REVISION } from '../../src/engine/index.js';
import { assertSarif } from '../helpers/sarif-schema.js';
import { bp, breakHandler, fakeToken, m } from '../helpers/blueprints.js';
import { FIXTURE_CORPUS_DIR } from '../helpers/fixtures.js';

const GOV = fileURLToPath(new URL('../../src/cli/gov.js', import.meta.url));

/** `gov scan --format json` (src/cli/scan/format-json.ts): per file, the engine's evaluation when evaluated. */
interface ScanJson {
  readonly files: readonly {
    readonly file: string;
    readonly status: 'evaluated' | 'invalid' | 'skipped';
    readonly evaluated_codes?: readonly string[];
  }[];
}

/** The parts of a SARIF 2.1.0 log (src/cli/scan/format-sarif.ts) this test reads. */
interface SarifLog {
  readonly runs: readonly {
    readonly tool: { readonly driver: { readonly rules: readonly unknown[] } };
    readonly taxonomies: readonly { readonly name: string }[];
    readonly results: readonly {
      readonly ruleId: string;
      readonly level: string;
      readonly locations: readonly {
        readonly physicalLocation: {
          readonly artifactLocation: { readonly uri: string };
          readonly region: { readonly startLine: number };
        };
        readonly logicalLocations: readonly { readonly fullyQualifiedName: string }[];
      }[];
      readonly codeFlows?: readonly {
        readonly threadFlows: readonly {
          readonly locations: readonly {
            readonly location: {
              readonly physicalLocation: { readonly region: { readonly startLine: number } };
              readonly message: { readonly text: string };
            };
          }[];
        }[];
      }[];
    }[];
  }[];
}

/** The GitHub code scanning parts of a SARIF log (src/cli/scan/format-sarif.ts, sarif-properties.ts). */
interface GitHubSarif {
  readonly runs: readonly {
    readonly tool: {
      readonly driver: {
        readonly informationUri?: string;
        readonly rules: readonly {
          readonly id: string;
          readonly helpUri?: string;
          readonly help: { readonly text: string; readonly markdown: string };
          readonly properties: {
            readonly tags: readonly string[];
            readonly category: string;
            readonly precision: string;
            readonly 'security-severity': string;
          };
        }[];
      };
    };
    readonly originalUriBaseIds: Readonly<Record<string, { readonly uri?: string }>>;
    readonly invocations: readonly {
      readonly executionSuccessful: boolean;
      readonly toolExecutionNotifications: readonly {
        readonly level: string;
        readonly message: { readonly text: string };
        readonly locations: readonly { readonly physicalLocation: unknown }[];
      }[];
    }[];
    readonly results: readonly {
      readonly ruleId: string;
      readonly locations: readonly {
        readonly physicalLocation: {
          readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string };
          readonly region: {
            readonly startLine: number;
            readonly startColumn: number;
            readonly endLine: number;
            readonly endColumn: number;
          };
        };
        readonly logicalLocations: readonly { readonly fullyQualifiedName: string }[];
      }[];
    }[];
  }[];
}

function gov(...args: string[]) {
  return govWith({}, ...args);
}

/** `gov` with standard input (`input`), a working directory, an environment; stdout and stderr are pipes, as in CI. */
function govWith(options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv }, ...args: string[]) {
  const r = spawnSync(process.execPath, [GOV, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The 1-based line and column of `offset` in `text`, computed here independently of the scanner. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

describe('gov scan', () => {
  let dir: string;
  let leaky: string;
  let clean: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gov-scan-'));
    leaky = join(dir, 'leaky.json');
    clean = join(dir, 'clean.json');
    writeFileSync(
      leaky,
      JSON.stringify(
        bp([
          m(1, 'http:MakeRequest', {
            version: 4,
            mapper: {
              url: 'https://api.example.com',
              headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(3, 36)}` }],
            },
            onerror: breakHandler(9),
          }),
        ]),
        null,
        2,
      ),
    );
    writeFileSync(
      clean,
      JSON.stringify(bp([m(1, 'util:SetVariable2', { mapper: { name: 'a', value: 'b' } })]), null, 2),
    );
    writeFileSync(join(dir, 'package.json'), '{"name":"not-a-blueprint"}');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 on a failing violation at or above --fail-on, 0 otherwise, and prints a readable table', () => {
    const r = gov('scan', leaky);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /CRIT SEC-1 +Hard-coded credential or token/);
    assert.equal(gov('scan', clean).code, 0);
    assert.equal(gov('scan', leaky, '--fail-on', 'none').code, 0);
    const dirScan = gov('scan', dir);
    assert.match(dirScan.out, /package\.json: skipped \(not a blueprint/);
  });

  it('exits 2 on an invalid blueprint and on usage errors', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"flow":[{"id":1}]}');
    const r = gov('scan', bad);
    assert.equal(r.code, 2);
    assert.match(r.out, /INVALID module must be a string .* at \/flow\/0\/module/);
    rmSync(bad);
    assert.equal(gov('scan', leaky, '--format', 'yaml').code, 2);
    assert.equal(gov('scan', leaky, '--policy', 'NOPE-1').code, 2);
  });

  it('reports malformed JSON as invalid with its line and column in every format and exits 2; JSON without "flow" stays skipped', () => {
    const own = join(dir, 'malformed-case'); // its own directory: other cases scan `dir`
    mkdirSync(own);
    const text = '{\n  "flow": [\n    ,\n  ]\n}\n';
    const at = lineColumn(text, text.indexOf(','));
    assert.deepEqual(at, { line: 3, column: 5 });
    const broken = join(own, 'broken.json');
    writeFileSync(broken, text);
    writeFileSync(join(own, 'package.json'), '{"name":"not-a-blueprint","version":"1.0.0"}');

    const table = gov('scan', own);
    assert.equal(table.code, 2, table.err);
    assert.match(table.out, /broken\.json: INVALID not valid JSON: Unexpected token ',' at line 3, column 5/);
    assert.match(table.out, /package\.json: skipped \(not a blueprint/);
    assert.doesNotMatch(table.out, /"flow": \[/, 'no excerpt of the file in the message');

    const json = JSON.parse(gov('scan', own, '--format', 'json').out) as {
      files: { file: string; status: string; position?: { line: number; column: number } }[];
    };
    assert.deepEqual(
      json.files.map((f) => [f.file.split('/').at(-1), f.status, f.position]),
      [
        ['broken.json', 'invalid', at],
        ['package.json', 'skipped', undefined],
      ],
    );
    const junit = gov('scan', own, '--format', 'junit');
    assert.equal(junit.code, 2);
    assert.match(junit.out, /<error message="not valid JSON[^"]*">[^<]*at line 3, column 5<\/error>/);
    const html = gov('scan', own, '--format', 'html');
    assert.equal(html.code, 2);
    assert.match(html.out, /Invalid blueprint: not valid JSON: Unexpected token [^ ]+ at line 3, column 5/);
    assert.equal(gov('scan', own, '--format', 'sarif').code, 2);

    const truncated = '{"flow": [';
    writeFileSync(broken, truncated);
    const cut = lineColumn(truncated, truncated.length);
    assert.match(gov('scan', broken).out, new RegExp(`at line ${cut.line}, column ${cut.column}`));
  });

  it('reads one blueprint from standard input for "-", reported as <stdin>', () => {
    const r = govWith({ input: readFileSync(leaky, 'utf8') }, 'scan', '-', '--format', 'json');
    assert.equal(r.code, 1, r.err);
    const files = (JSON.parse(r.out) as ScanJson).files;
    assert.deepEqual(
      files.map((f) => [f.file, f.status]),
      [['<stdin>', 'evaluated']],
    );
    const malformed = govWith({ input: '{\n  "flow": [\n    ,\n  ]\n}\n' }, 'scan', '-');
    assert.equal(malformed.code, 2);
    assert.match(malformed.out, /<stdin>: INVALID .* at line 3, column 5/);
    assert.equal(govWith({ input: '{}' }, 'scan', '-', '-').code, 2, '"-" twice is a usage error');
  });

  it('with -q prints only findings: no clean file, no summary', () => {
    const r = gov('scan', leaky, clean, '-q');
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /leaky\.json/);
    assert.match(r.out, /CRIT SEC-1/);
    assert.doesNotMatch(r.out, /clean\.json/);
    assert.doesNotMatch(r.out, /Scanned \d+ file|Policy +scenarios/);
    assert.equal(gov('scan', clean, '--quiet').out, '', 'a clean scan prints nothing');
  });

  it('prints no progress line when stderr is a pipe', () => {
    const r = gov('scan', dir);
    assert.doesNotMatch(r.err, /scanned \d+\/\d+/);
    assert.ok(!r.err.includes('\r') && !r.err.includes('\u001b'), 'no carriage return or escape sequence');
  });

  it('--version prints the package version and the policy catalog revision', () => {
    const r = gov('--version');
    assert.equal(r.code, 0);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    assert.equal(r.out, `${pkg.version} (policy catalog ${CATALOG_REVISION})\n`);
  });

  it('runs as `npx gov` from the repository root (package.json bin: the committed launcher bin/gov.mjs)', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.equal(pkg.bin['gov'], 'bin/gov.mjs');
    const r = spawnSync('npx', ['--no-install', 'gov', '--version'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`\\(policy catalog ${CATALOG_REVISION.replace(/\./g, '\\.')}\\)\n$`));
    const direct = spawnSync(process.execPath, [join(root, 'bin', 'gov.mjs'), 'scan', '-', '--format', 'json'], {
      encoding: 'utf8',
      input: readFileSync(leaky, 'utf8'),
    });
    assert.equal(direct.status, 1, direct.stderr);
    assert.equal((JSON.parse(direct.stdout) as ScanJson).files[0]!.file, '<stdin>');
  });

  it('with --write-baseline then --baseline, reports only findings added since, and exits on them alone', () => {
    const own = join(dir, 'baseline-case'); // its own directory: other cases scan `dir`
    mkdirSync(own);
    const grown = join(own, 'grown.json');
    const base = join(own, 'gov-baseline.json');
    const secretIn = (id: number, n: number) =>
      m(id, 'http:MakeRequest', {
        version: 4,
        mapper: {
          url: `https://api${id}.example.com`,
          headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(n, 36)}` }],
        },
        onerror: breakHandler(100 + id),
      });
    writeFileSync(grown, JSON.stringify(bp([secretIn(1, 5)]), null, 2));
    assert.equal(gov('scan', grown, '--write-baseline', base).code, 1, 'today the secret fails the scan');
    const baseline = JSON.parse(readFileSync(base, 'utf8')) as { version: number; fingerprints: string[] };
    assert.equal(baseline.version, 1);
    assert.ok(baseline.fingerprints.length > 0);

    const same = gov('scan', grown, '--baseline', base, '--format', 'json');
    assert.equal(same.code, 0, 'every finding is in the baseline');
    const sameJson = JSON.parse(same.out) as { files: { violations: unknown[] }[] };
    assert.deepEqual(sameJson.files[0]!.violations, []);
    assert.match(same.err, /finding\(s\) in the baseline/);

    // A second module with a secret of its own: only its findings are new.
    writeFileSync(grown, JSON.stringify(bp([secretIn(1, 5), secretIn(2, 6)]), null, 2));
    const grownScan = gov('scan', grown, '--baseline', base, '--format', 'json');
    assert.equal(grownScan.code, 1, 'the new secret fails the scan');
    const violations = (
      JSON.parse(grownScan.out) as { files: { violations: { failing_modules: { module_id: string }[] }[] }[] }
    ).files[0]!.violations;
    assert.ok(violations.length > 0);
    for (const v of violations)
      for (const f of v.failing_modules) assert.notEqual(f.module_id, '1', 'module 1 was baselined');
    assert.ok(violations.some((v) => v.failing_modules.some((f) => f.module_id === '2')));

    writeFileSync(join(own, 'not-a-baseline.json'), '{"fingerprints": 3}');
    assert.equal(gov('scan', grown, '--baseline', join(own, 'not-a-baseline.json')).code, 2);
    assert.equal(gov('scan', grown, '--baseline', join(own, 'missing.json')).code, 2);
  });

  it('honours a waiver file: waived findings are kept, marked (SARIF suppressions) and do not fail; expired waivers are reported and ignored', () => {
    const own = join(dir, 'waiver-case'); // its own directory: other cases scan `dir`
    mkdirSync(own);
    const target = join(own, 'leaky.json');
    writeFileSync(target, readFileSync(leaky, 'utf8'));
    const scanned = JSON.parse(gov('scan', target, '--format', 'json').out) as {
      files: {
        file: string;
        violations: {
          policy: string;
          status: string;
          fingerprint: string;
          failing_modules: { fingerprint: string }[];
        }[];
      }[];
    };
    const { file, violations } = scanned.files[0]!;
    const findings = violations.flatMap((v) =>
      (v.failing_modules.length > 0 ? v.failing_modules : [v]).map((f) => ({
        policy: v.policy,
        fingerprint: f.fingerprint,
      })),
    );
    assert.ok(findings.length >= 1);
    const entry = (f: { policy: string; fingerprint: string }, expires: string) =>
      `  - policy: ${f.policy}\n    file: ${JSON.stringify(file)}\n    fingerprint: "${f.fingerprint}"\n    reason: test fixture, not a real key\n    approver: security@example.com\n    expires: ${expires}\n`;
    const waivers = join(own, 'waivers.yaml');
    writeFileSync(
      waivers,
      `waivers:\n${findings.map((f) => entry(f, '2099-12-31')).join('')}${entry(findings[0]!, '2020-01-01')}`,
    );
    const waived = gov('scan', target, '--waivers', waivers, '--fail-on', 'low');
    assert.equal(waived.code, 0, waived.err);
    assert.match(waived.err, new RegExp(`${findings.length} finding\\(s\\) waived`));
    assert.match(waived.err, /expired waiver in .*expired after 2020-01-01/);
    assert.match(waived.out, /\[waived until 2099-12-31: test fixture, not a real key\]/);

    const sarif = JSON.parse(gov('scan', target, '--waivers', waivers, '--format', 'sarif').out) as {
      runs: { results: { suppressions?: { kind: string; status: string; justification: string }[] }[] }[];
    };
    assertSarif(sarif);
    assert.ok(sarif.runs[0]!.results.length > 0);
    for (const r of sarif.runs[0]!.results)
      assert.deepEqual(r.suppressions, [
        { kind: 'external', status: 'accepted', justification: 'test fixture, not a real key' },
      ]);

    // Only the expired entry for the first finding: it fails again.
    writeFileSync(waivers, `waivers:\n${entry(findings[0]!, '2020-01-01')}`);
    assert.equal(gov('scan', target, '--waivers', waivers, '--fail-on', 'low').code, 1);
    writeFileSync(waivers, 'waivers:\n  - policy: SEC-1\n    expires: 2099-01-01\n');
    const bad = gov('scan', target, '--waivers', waivers);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /entry 1: "reason" is required/);
    // An impossible day, unquoted (YAML made it a Date: 2 March) or quoted, and a date-time, are refused.
    for (const expires of ['2027-02-30', '"2027-02-29"', '2027-03-01T00:00:00Z']) {
      writeFileSync(waivers, `waivers:\n  - policy: SEC-1\n    reason: r\n    expires: ${expires}\n`);
      const refused = gov('scan', target, '--waivers', waivers);
      assert.equal(refused.code, 2, `${expires}: ${refused.err}`);
      assert.ok(
        refused.err.includes(`waivers ${waivers}, entry 1: "expires" must be a calendar date YYYY-MM-DD`),
        refused.err,
      );
    }
    writeFileSync(waivers, 'waivers:\n  - policy: SEC-1\n    reason: r\n    expires: 2028-02-29\n');
    assert.notEqual(gov('scan', target, '--waivers', waivers).code, 2, 'a leap day is a date');
  });

  it('applies --rules and --settings offline as the service does: a custom rule fires, an override and a disabled policy change the report', () => {
    const own = join(dir, 'governance-case');
    mkdirSync(own);
    const sheets = join(own, 'sheets.json');
    writeFileSync(sheets, JSON.stringify(bp([m(1, 'google-sheets:addRow'), m(2, 'util:SetVariable2')])));
    const rules = join(own, 'rules.json');
    // As GET /governance/rules returns them (the envelope's `data`), metadata included.
    writeFileSync(
      rules,
      JSON.stringify({
        revision: 3,
        rules: [
          {
            code: 'ORG-3',
            revision: 3,
            created_at: '2026-11-26T00:00:00.000Z',
            created_by: 'key:k1',
            deleted_at: null,
            title: 'Sheets writes need an error handler',
            severity: 'critical',
            category: 'DI',
            remediation: 'Add an error handler.',
            match: { all: [{ app: 'google-sheets' }, { has_error_handler: false }] },
          },
        ],
      }),
    );
    const plain = gov('scan', sheets, '--format', 'json', '--fail-on', 'none');
    const codesOf = (out: string) =>
      (JSON.parse(out) as { files: { violations?: { policy: string; severity: string }[] }[] }).files[0]!.violations!;
    assert.ok(!codesOf(plain.out).some((v) => v.policy === 'ORG-3'));
    const withRules = gov('scan', sheets, '--rules', rules, '--format', 'json', '--fail-on', 'none');
    assert.equal(withRules.code, 0, withRules.err);
    assert.deepEqual(
      codesOf(withRules.out).find((v) => v.policy === 'ORG-3')?.severity,
      'critical',
      'the custom rule fires under its service code',
    );
    assert.equal(gov('scan', sheets, '--rules', rules).code, 1, 'a critical custom finding fails the scan');

    const settings = join(own, 'settings.json');
    writeFileSync(
      settings,
      JSON.stringify({
        version: 4,
        disabled_policies: ['ORG-3', 'ARC-4'],
        severity_overrides: { 'DI-1': 'high' },
        parameters: {},
      }),
    );
    const tuned = gov(
      'scan',
      sheets,
      '--rules',
      rules,
      '--settings',
      settings,
      '--format',
      'json',
      '--fail-on',
      'none',
    );
    assert.equal(tuned.code, 0, tuned.err);
    const violations = codesOf(tuned.out);
    assert.ok(!violations.some((v) => v.policy === 'ORG-3' || v.policy === 'ARC-4'), 'disabled');
    assert.equal(violations.find((v) => v.policy === 'DI-1')?.severity, 'high');

    const bad = join(own, 'bad-settings.json');
    writeFileSync(bad, JSON.stringify({ disabled_policies: ['NOPE-1'] }));
    const refused = gov('scan', sheets, '--settings', bad);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /settings .*bad-settings\.json: \/disabled_policies\/0/);
    const badRules = join(own, 'bad-rules.json');
    writeFileSync(
      badRules,
      JSON.stringify([
        {
          title: 'x',
          severity: 'high',
          category: 'SEC',
          remediation: 'r',
          match: { field: '/mapper/x', matches: '(?<=a)b' },
        },
      ]),
    );
    const unsafe = gov('scan', sheets, '--rules', badRules);
    assert.equal(unsafe.code, 2);
    assert.match(unsafe.err, /rules .*ORG-1: \/0\/match\/matches/);
  });

  it('writes a self-contained HTML report: one picture per file, the failing module marked, no script and no external reference', () => {
    const own = join(dir, 'html-case'); // its own directory: other cases scan `dir`
    mkdirSync(own);
    writeFileSync(join(own, 'leaky.json'), readFileSync(leaky, 'utf8'));
    writeFileSync(join(own, 'clean.json'), readFileSync(clean, 'utf8'));
    const out = join(own, 'report.html');
    const r = gov('scan', own, '--format', 'html', '--output', out);
    assert.equal(r.code, 1, r.err);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.match(html, /<\/html>\n$/);
    assert.equal(html.match(/<svg /g)?.length, 2, 'one picture per scanned file');
    assert.equal(html.match(/<\/svg>/g)?.length, 2);
    assert.match(html, /<section id="file-1-section"><h2>[^<]*clean\.json<\/h2>/);
    assert.match(html, /<section id="file-2-section"><h2>[^<]*leaky\.json<\/h2>/);
    assert.match(html, /<g class="module failing" data-module-id="1" data-badge="critical"/);
    assert.match(
      html,
      /<td><code>SEC-1<\/code><\/td><td><span class="sev sev-critical">CRITICAL<\/span><\/td><td>fail<\/td>/,
    );
    assert.doesNotMatch(html, /<script|\son[a-z]+=|url\(|\ssrc=/i);
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.match(href!, /^#/, 'links stay in the page');
    assert.doesNotMatch(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', ''), /https?:\/\//, 'nothing external');
  });

  it('renders the Markdown of reasons and remediation steps in the HTML report, and a label carrying HTML stays text', () => {
    const own = join(dir, 'html-markdown-case'); // its own directory: other cases scan `dir`
    mkdirSync(own);
    writeFileSync(
      join(own, 'labelled.json'),
      JSON.stringify(
        bp([
          m(1, 'http:MakeRequest', {
            version: 4,
            mapper: {
              url: 'https://api.example.com',
              headers: [{ name: 'Authorization', value: `Bearer ghp_${fakeToken(5, 36)}` }],
            },
            metadata: {
              designer: {
                x: 0,
                y: 0,
                name: 'CRM <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](https://x.example/)',
              },
            },
            onerror: breakHandler(9),
          }),
        ]),
      ),
    );
    const out = join(own, 'report.html');
    const r = gov('scan', own, '--format', 'html', '--output', out);
    assert.equal(r.code, 1, r.err);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /<h3>Remediation<\/h3>\n<h4><code>SEC-1<\/code> /);
    // SEC-1's first step is `**Revoke and rotate** every exposed credential ...`.
    assert.match(html, /<li><strong>Revoke and rotate<\/strong> every exposed credential/);
    // The label's HTML is text, and so are its links: the report has no external URL in any href.
    assert.match(
      html,
      /<li>In <strong>CRM &lt;img src=x onerror=alert\(1\)&gt; \[x\]\(javascript:alert\(1\)\) \[y\]\(https:\/\/x\.example\/\)<\/strong> \(module 1, /,
    );
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.match(href!, /^#/, 'links stay in the page');
    assert.match(html, /<code>http:MakeRequest<\/code>/);
    assert.doesNotMatch(html, /\*\*/, 'no literal ** left');
    assert.doesNotMatch(html, /<script|<img|\shref="javascript:/i);
    for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi))
      assert.doesNotMatch(tag.replace(/="[^"]*"/g, '=""'), /\son[a-z]+=/i, `no event handler attribute in ${tag}`);
  });

  it('filters with --policy and --skip-policy', () => {
    const only = JSON.parse(gov('scan', leaky, '--format', 'json', '--policy', 'SEC-1').out) as ScanJson;
    assert.deepEqual(only.files[0]!.evaluated_codes, ['SEC-1']);
    const skipped = JSON.parse(gov('scan', leaky, '--format', 'json', '--skip-policy', 'SEC-1').out) as ScanJson;
    assert.equal(skipped.files[0]!.evaluated_codes?.includes('SEC-1'), false);
    assert.equal(gov('scan', leaky, '--skip-policy', 'SEC-1').code, 0);
  });

  it('writes SARIF 2.1.0 that validates against the schema, with graded levels, taxonomies and line regions', () => {
    const out = join(dir, 'report.sarif');
    gov('scan', FIXTURE_CORPUS_DIR, leaky, '--format', 'sarif', '--output', out);
    const log = JSON.parse(readFileSync(out, 'utf8')) as SarifLog;
    assertSarif(log);
    const run = log.runs[0]!;
    const levels = new Set(run.results.map((r) => r.level));
    assert.ok(levels.has('error') && levels.has('warning') && levels.has('note'), [...levels].join(','));
    assert.ok(run.tool.driver.rules.length >= 40);
    assert.ok(run.taxonomies.some((t) => t.name === 'GDPR') && run.taxonomies.some((t) => t.name === 'SOC 2'));
    const sec1 = run.results.find(
      (r) => r.ruleId === 'SEC-1' && r.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('leaky.json'),
    );
    assert.ok(sec1, 'a SEC-1 result in leaky.json');
    const location = sec1.locations[0]!;
    assert.equal(location.logicalLocations[0]!.fullyQualifiedName, '/flow/0/mapper/headers/0/value');
    const line = readFileSync(leaky, 'utf8').split('\n')[location.physicalLocation.region.startLine - 1]!;
    assert.match(line, /"value": "Bearer ghp_/);
    assert.ok(!readFileSync(out, 'utf8').includes(fakeToken(3, 36)), 'SARIF must not contain the secret');
    // Issue 32: personal data from the order webhook reaching a module is a result with its code flow, source first.
    const order = join(FIXTURE_CORPUS_DIR, 'order-webhook-router.blueprint.json');
    const flowResult = run.results.find(
      (r) =>
        r.codeFlows &&
        r.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('order-webhook-router.blueprint.json'),
    );
    assert.ok(flowResult, 'a result with a code flow in order-webhook-router');
    const steps = flowResult.codeFlows![0]!.threadFlows[0]!.locations;
    assert.ok(steps.length >= 2);
    assert.match(steps[0]!.location.message.text, /^Source: module 1 /);
    assert.match(steps.at(-1)!.location.message.text, /^Sink: module /);
    const orderLines = readFileSync(order, 'utf8').split('\n');
    assert.match(
      orderLines[steps[0]!.location.physicalLocation.region.startLine - 1]!,
      /"module": "gateway:CustomWebHook"/,
    );
  });

  it('writes SARIF for GitHub code scanning: rule properties on every rule, a region on every result, %SRCROOT%, invalid files as notifications', () => {
    const own = join(dir, 'github-case'); // its own directory: other cases scan `dir`
    mkdirSync(join(own, 'flows', 'nested'), { recursive: true });
    writeFileSync(join(own, 'flows', 'leaky.json'), readFileSync(leaky, 'utf8'));
    writeFileSync(join(own, 'flows', 'nested', 'clean.json'), readFileSync(clean, 'utf8'));
    writeFileSync(join(own, 'flows', 'nested', 'broken.json'), '{\n  "flow": [\n    ,\n  ]\n}\n');
    const corpusFile = join(FIXTURE_CORPUS_DIR, 'order-webhook-router.blueprint.json');
    const r = govWith(
      { cwd: own },
      'scan',
      'flows',
      corpusFile,
      '--format',
      'sarif',
      '--doc-base',
      'https://docs.example.org/gov/policies',
    );
    assert.equal(r.code, 2, 'the malformed file makes it exit 2');
    const log = JSON.parse(r.out) as GitHubSarif;
    assertSarif(log);
    const run = log.runs[0]!;
    for (const rule of run.tool.driver.rules) {
      const p = rule.properties;
      assert.ok(p.tags.includes('security') && p.tags.includes(p.category), `${rule.id} tags ${p.tags.join(',')}`);
      assert.ok(['very-high', 'high', 'medium', 'low'].includes(p.precision), `${rule.id} precision ${p.precision}`);
      const score = Number(p['security-severity']);
      assert.ok(typeof p['security-severity'] === 'string' && score > 0 && score <= 10, rule.id);
      assert.equal(rule.helpUri, `https://docs.example.org/gov/policies/${rule.id}.md`);
    }
    const byId = new Map(run.tool.driver.rules.map((rule) => [rule.id, rule]));
    assert.equal(byId.get('SEC-1')!.properties['security-severity'], '9.5', 'critical is above 9.0');
    assert.equal(byId.get('SEC-1')!.properties.precision, 'very-high', '47 of 47 labelled findings true');
    assert.equal(run.originalUriBaseIds['%SRCROOT%']!.uri, undefined, 'the scan root stays on the machine');
    assert.ok(run.results.length > 0);
    for (const result of run.results) {
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      for (const k of ['startLine', 'startColumn', 'endLine', 'endColumn'] as const)
        assert.ok(Number.isInteger(region[k]) && region[k] >= 1, `${result.ruleId} ${k}`);
      assert.ok(!artifactLocation.uri.includes('broken'), 'no result for the malformed file');
      assert.equal(artifactLocation.uriBaseId, '%SRCROOT%');
      if (!artifactLocation.uri.startsWith('flows/'))
        assert.equal(artifactLocation.uri, relative(own, corpusFile), 'outside %SRCROOT%: relative to it, with ..');
    }
    const leakyResults = run.results.filter(
      (x) => x.locations[0]!.physicalLocation.artifactLocation.uri === 'flows/leaky.json',
    );
    assert.ok(leakyResults.some((x) => x.ruleId === 'SEC-1'));
    // Every region of leaky.json starts on a line of the file, at the value its logical location names.
    const lines = readFileSync(leaky, 'utf8').split('\n');
    for (const x of leakyResults) {
      const { region } = x.locations[0]!.physicalLocation;
      const name = x.locations[0]!.logicalLocations[0]!.fullyQualifiedName.split('/').at(-1)!;
      assert.ok(region.endLine <= lines.length);
      if (/^\D/.test(name)) assert.match(lines[region.startLine - 1]!, new RegExp(`"${name}": `), name);
    }
    const invocation = run.invocations[0]!;
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.toolExecutionNotifications.length, 1);
    const note = invocation.toolExecutionNotifications[0]!;
    assert.equal(note.level, 'error');
    assert.match(note.message.text, /broken\.json: not valid JSON: .* at line 3, column 5/);
    assert.deepEqual(note.locations[0]!.physicalLocation, {
      artifactLocation: { uri: 'flows/nested/broken.json', uriBaseId: '%SRCROOT%' },
      region: { startLine: 3, startColumn: 5 },
    });

    const clean2 = govWith(
      { cwd: own, env: { ...process.env, GOV_DOC_BASE: 'https://env.example.org/p/' } },
      'scan',
      'flows',
      '--exclude',
      'broken.json',
      '--format',
      'sarif',
    );
    assert.equal(clean2.code, 1, clean2.err);
    const log2 = JSON.parse(clean2.out) as GitHubSarif;
    assertSarif(log2);
    assert.equal(
      log2.runs[0]!.tool.driver.rules[0]!.helpUri,
      `https://env.example.org/p/${log2.runs[0]!.tool.driver.rules[0]!.id}.md`,
    );
    assert.deepEqual(log2.runs[0]!.invocations[0], { executionSuccessful: true, toolExecutionNotifications: [] });
    assert.equal(govWith({ cwd: own }, 'scan', 'flows', '--format', 'sarif', '--doc-base', 'nope').code, 2);
  });

  it('writes SARIF without a path of the machine: no file: URL, no absolute path, each policy page in help.markdown unless --doc-base', () => {
    // The repository's own blueprints (examples/), scanned from a scan root of their own, one of
    // them given by its absolute path, one outside the root, and an invalid file given absolute.
    const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
    const own = join(dir, 'no-local-path-case'); // its own directory: other cases scan `dir`
    const outside = join(dir, 'no-local-path-outside');
    mkdirSync(join(own, 'flows'), { recursive: true });
    mkdirSync(outside);
    for (const name of readdirSync(examples).filter((f) => f.endsWith('.blueprint.json')))
      writeFileSync(join(own, 'flows', name), readFileSync(join(examples, name)));
    writeFileSync(join(outside, 'order-intake.json'), readFileSync(join(examples, 'order-intake.blueprint.json')));
    writeFileSync(join(own, 'broken.json'), '{"flow": [}');
    const args = ['scan', 'flows', join(outside, 'order-intake.json'), join(own, 'broken.json'), '--format', 'sarif'];
    const env = { ...process.env, GOV_DOC_BASE: '' };
    const r = govWith({ cwd: own, env }, ...args);
    assert.equal(r.code, 2, `the invalid file makes it exit 2: ${r.err}`);
    const text = r.out;
    assert.ok(!/file:/i.test(text), 'no file: URL');
    const repository = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
    for (const local of [own, outside, dir, tmpdir(), repository, homedir(), process.cwd()].filter((d) => d !== '/'))
      assert.ok(!text.includes(local) && !text.includes(JSON.stringify(local).slice(1, -1)), `mentions ${local}`);
    const log = JSON.parse(text) as GitHubSarif;
    assertSarif(log);
    const run = log.runs[0]!;
    assert.deepEqual(Object.keys(run.originalUriBaseIds['%SRCROOT%']!), ['description'], 'a base without its uri');
    assert.equal(run.tool.driver.informationUri, undefined);
    for (const rule of run.tool.driver.rules) {
      assert.equal(rule.helpUri, undefined, `${rule.id}: no helpUri without --doc-base`);
      assert.ok(rule.help.text.length > 0, `${rule.id}: help.text beside help.markdown (SARIF 2.1.0)`);
      assert.ok(rule.help.markdown.startsWith(`# ${rule.id}: `), `${rule.id}: its policy page`);
    }
    const sec1 = run.tool.driver.rules.find((rule) => rule.id === 'SEC-1')!;
    assert.match(sec1.help.markdown, /\n## Rationale\n\n[^\n]+\n\n## Avoid\n/);
    assert.match(sec1.help.markdown, /\n## Compliance frameworks\n/);
    const uris = new Set(run.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri));
    assert.deepEqual([...uris].sort(), [
      '../no-local-path-outside/order-intake.json',
      'flows/lead-enrichment.blueprint.json',
      'flows/order-intake.blueprint.json',
    ]);
    for (const x of run.results) assert.equal(x.locations[0]!.physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
    const note = run.invocations[0]!.toolExecutionNotifications[0]!;
    assert.match(note.message.text, /^broken\.json: not valid JSON/);

    // With a documentation base: helpUri and informationUri on it, the page's links resolved against it.
    const based = govWith(
      { cwd: own, env },
      ...args,
      '--doc-base',
      'https://github.com/acme/gov/blob/v1/docs/policies/',
    );
    const log2 = JSON.parse(based.out) as GitHubSarif;
    assertSarif(log2);
    const driver = log2.runs[0]!.tool.driver;
    assert.equal(driver.informationUri, 'https://github.com/acme/gov/blob/v1/docs/policies/README.md');
    const sec1Based = driver.rules.find((rule) => rule.id === 'SEC-1')!;
    assert.equal(sec1Based.helpUri, 'https://github.com/acme/gov/blob/v1/docs/policies/SEC-1.md');
    assert.match(sec1Based.help.markdown, /\(https:\/\/github\.com\/acme\/gov\/blob\/v1\/docs\/precision\.md\)/);
    assert.ok(!/file:/i.test(based.out) && !based.out.includes(own));
  });

  it('expands quoted globs and honours --exclude from the command line', () => {
    const own = join(dir, 'glob-case');
    mkdirSync(join(own, 'a', 'fixtures'), { recursive: true });
    writeFileSync(join(own, 'a', 'leaky.json'), readFileSync(leaky, 'utf8'));
    writeFileSync(join(own, 'a', 'fixtures', 'leaky-fixture.json'), readFileSync(leaky, 'utf8'));
    writeFileSync(join(own, 'a', 'clean.json'), readFileSync(clean, 'utf8'));
    const files = (out: string) => (JSON.parse(out) as ScanJson).files.map((f) => f.file).sort();
    const all = govWith({ cwd: own }, 'scan', 'a/**/*.json', '--format', 'json');
    assert.equal(all.code, 1, all.err);
    assert.deepEqual(files(all.out), ['a/clean.json', 'a/fixtures/leaky-fixture.json', 'a/leaky.json']);
    const some = govWith(
      { cwd: own },
      'scan',
      'a',
      '--exclude',
      'fixtures',
      '--exclude',
      'leaky*.json',
      '--format',
      'json',
    );
    assert.equal(some.code, 0, some.err);
    assert.deepEqual(files(some.out), ['a/clean.json']);
    const none = govWith({ cwd: own }, 'scan', 'b/**/*.json');
    assert.equal(none.code, 2);
    assert.match(none.err, /no file matches b\/\*\*\/\*\.json/);
  });

  it('writes JUnit XML with failures for failing policies', () => {
    const xml = gov('scan', leaky, clean, '--format', 'junit').out;
    assert.match(xml, /^<\?xml version="1.0"/);
    assert.match(xml, /<testsuite name="[^"]*leaky\.json" tests="\d+" failures="[1-9]\d*"/);
    assert.match(
      xml,
      /<testcase classname="[^"]*leaky\.json" name="SEC-1 Hard-coded credential or token"><failure type="critical"/,
    );
    assert.equal((xml.match(/<testsuite /g) ?? []).length, 2);
  });
});
