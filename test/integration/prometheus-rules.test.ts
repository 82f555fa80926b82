/**
 * The alert rules on their own: promtool (Debian's `prometheus` package, installed by
 * scripts/ensure-prometheus.sh when absent) checks both rule files and runs their unit tests
 * (grafana/prometheus/tests/*.test.yml); every alert has a case where it fires and one where it
 * stays silent, and a runbook_url whose anchor is a heading of docs/runbook.md. Without promtool
 * the promtool cases fail, saying why: they are never skipped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { buildDashboard } from '../../src/ops/grafana.js';
import { DASHBOARDS } from '../../src/ops/panels.js';
import { CLUSTER_DASHBOARDS } from '../../src/ops/cluster-panels.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULE_FILES = ['grafana/prometheus/alerts.yml', 'grafana/prometheus/cluster-alerts.yml'];
const TEST_DIR = 'grafana/prometheus/tests';

/** What this test reads of a Prometheus rule file. */
interface RuleFile {
  readonly groups: readonly {
    readonly rules: readonly { readonly alert?: string; readonly annotations?: Record<string, string> }[];
  }[];
}
/** What this test reads of a promtool unit-test file. */
interface RuleTestFile {
  readonly rule_files: readonly string[];
  readonly tests: readonly {
    readonly alert_rule_test?: readonly { readonly alertname: string; readonly exp_alerts?: readonly unknown[] }[];
  }[];
}

const alerts = RULE_FILES.flatMap((file) =>
  (yaml.load(readFileSync(join(ROOT, file), 'utf8')) as RuleFile).groups.flatMap((g) =>
    g.rules.flatMap((r) => (r.alert ? [{ file, name: r.alert, annotations: r.annotations ?? {} }] : [])),
  ),
);
const testFiles = readdirSync(join(ROOT, TEST_DIR))
  .filter((f) => f.endsWith('.test.yml'))
  .map((f) => join(TEST_DIR, f));

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function promtool(args: string[]) {
  const r = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

describe('Prometheus alert rules', () => {
  it('are all covered by promtool unit tests, each alert both firing and silent', () => {
    assert.ok(alerts.length >= 15, `${alerts.length} alerts`);
    assert.ok(
      alerts.some((a) => a.name === 'GovStoreFilling'),
      'the LMDB map alert is defined',
    );
    const cases = testFiles.flatMap((f) =>
      (yaml.load(readFileSync(join(ROOT, f), 'utf8')) as RuleTestFile).tests.flatMap((t) => t.alert_rule_test ?? []),
    );
    const missing: string[] = [];
    for (const a of alerts) {
      const mine = cases.filter((c) => c.alertname === a.name);
      if (!mine.some((c) => (c.exp_alerts ?? []).length > 0)) missing.push(`${a.name}: no case where it fires`);
      if (!mine.some((c) => (c.exp_alerts ?? []).length === 0)) missing.push(`${a.name}: no case where it is silent`);
    }
    assert.deepEqual(missing, []);
    const loaded = testFiles.flatMap((f) =>
      (yaml.load(readFileSync(join(ROOT, f), 'utf8')) as RuleTestFile).rule_files.map((r) =>
        join(TEST_DIR, r).replace(/^grafana\/prometheus\/tests\/\.\.\//, 'grafana/prometheus/'),
      ),
    );
    assert.deepEqual([...new Set(loaded)].sort(), [...RULE_FILES].sort(), 'the unit tests load both rule files');
  });

  it('give every alert a runbook_url whose section exists in docs/runbook.md', () => {
    const runbook = readFileSync(join(ROOT, 'docs/runbook.md'), 'utf8');
    const anchors = new Set([...runbook.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
    const bad: string[] = [];
    for (const a of alerts) {
      const url = a.annotations['runbook_url'];
      const m = /^docs\/runbook\.md#([\w-]+)$/.exec(url ?? '');
      if (!m) bad.push(`${a.name}: runbook_url ${JSON.stringify(url)} is not docs/runbook.md#<anchor>`);
      else if (!anchors.has(m[1]!)) bad.push(`${a.name}: docs/runbook.md has no heading for #${m[1]}`);
      else if (m[1] !== anchor(a.name)) bad.push(`${a.name}: links to another alert's section #${m[1]}`);
      if (!a.annotations['summary']) bad.push(`${a.name}: no summary`);
    }
    assert.deepEqual(bad, []);
    // Each section says what the alert means, what to look at (PromQL) and what to do.
    for (const a of alerts) {
      const section = runbook.split(/^## /m).find((s) => s.startsWith(`${a.name}\n`)) ?? '';
      for (const part of ['**Means**', '**Look at**', '```promql', '**Do**'])
        assert.ok(section.includes(part), `docs/runbook.md, ${a.name}: no ${part}`);
    }
  });

  describe('with promtool', () => {
    const ensure = spawnSync('bash', [join(ROOT, 'scripts/ensure-prometheus.sh')], { encoding: 'utf8' });

    it('promtool is installed (scripts/ensure-prometheus.sh: Debian package prometheus)', () => {
      assert.equal(
        ensure.status,
        0,
        `promtool is required and could not be installed: ${ensure.stdout.trim() || ensure.stderr.trim()}`,
      );
    });

    it('promtool check rules accepts both rule files', () => {
      const r = promtool(['check', 'rules', ...RULE_FILES]);
      assert.equal(r.status, 0, r.out);
      assert.equal((r.out.match(/SUCCESS/g) ?? []).length, RULE_FILES.length, r.out);
    });

    it('promtool test rules passes every unit test', () => {
      assert.ok(testFiles.length >= 2, testFiles.join(', '));
      const r = promtool(['test', 'rules', ...testFiles]);
      assert.equal(r.status, 0, r.out);
      assert.doesNotMatch(r.out, /FAILED/, r.out);
      assert.equal((r.out.match(/SUCCESS/g) ?? []).length, testFiles.length, r.out);
    });

    it('every dashboard query, as Grafana sends it with one or all instances, is valid PromQL', () => {
      const exprs = [...DASHBOARDS, ...CLUSTER_DASHBOARDS].flatMap((d) =>
        (buildDashboard(d) as { panels: { targets?: { expr: string }[] }[] }).panels.flatMap((p) =>
          (p.targets ?? []).map((t) => t.expr),
        ),
      );
      assert.ok(exprs.length >= 60 && exprs.every((e) => e.includes('instance=~"$instance"')), `${exprs.length}`);
      // promtool parses each expression of a rule file: the queries become recording rules.
      const dir = mkdtempSync(join(tmpdir(), 'gov-promql-'));
      try {
        const rules = [
          ...exprs.map((e) => e.replaceAll('$instance', '.*')),
          ...exprs.map((e) => e.replaceAll('$instance', 'gov:9464|gov-2:9464')),
        ];
        const file = join(dir, 'dashboards.yml');
        writeFileSync(
          file,
          yaml.dump({
            groups: [{ name: 'dashboards', rules: rules.map((expr, i) => ({ record: `dashboard:query${i}`, expr })) }],
          }),
        );
        const r = promtool(['check', 'rules', file]);
        assert.equal(r.status, 0, r.out);
        assert.match(r.out, new RegExp(`SUCCESS: ${rules.length} rules found`));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('promtool test rules fails when an alert no longer fires where its test expects it', () => {
      // The unit tests are not vacuous: the same cases against rules with thresholds out of reach must fail.
      const mutated = spawnSync(
        'bash',
        [
          '-c',
          `set -e; d=$(mktemp -d); trap 'rm -rf "$d"' EXIT; mkdir "$d/tests"
           sed -E 's/> 0\\.(01|5|9|85|8|05)$/> 1e9/; s/> (100|1000|0)$/> 1e9/; s/== 0$/== 7/' grafana/prometheus/alerts.yml > "$d/alerts.yml"
           sed -E 's/> 0\\.(01|5|9|85|8|05)$/> 1e9/; s/> (100|1000|0)$/> 1e9/; s/== 0$/== 7/' grafana/prometheus/cluster-alerts.yml > "$d/cluster-alerts.yml"
           cp ${TEST_DIR}/*.test.yml "$d/tests/"
           promtool test rules "$d"/tests/*.test.yml`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      assert.notEqual(mutated.status, 0, 'promtool passed rules whose thresholds were raised out of reach');
      const failedAlerts = new Set(
        [...`${mutated.stdout}${mutated.stderr}`.matchAll(/alertname: (\w+),/g)].map((m) => m[1]),
      );
      assert.deepEqual(
        alerts.map((a) => a.name).filter((n) => !failedAlerts.has(n)),
        [],
        'every alert has a firing case that notices the change',
      );
    });
  });
});
