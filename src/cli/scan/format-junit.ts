/** @module cli/scan/format-junit: JUnit XML, one test suite per file and one test case per evaluated policy. */
import type { FileResult } from './run.js';
import { describeInvalid } from './file-result.js';
import { POLICY_BY_CODE } from '../../engine/index.js';

/** C0 control characters other than tab, LF and CR: XML 1.0 forbids them even escaped, so they are dropped. */
// eslint-disable-next-line no-control-regex -- matching control characters is this expression's point
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(XML_INVALID, '');
}

/** Renders JUnit XML: `fail` violations are failures, `warn` ones pass with a system-out note; invalid files are errors. */
export function formatJunit(results: readonly FileResult[]): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const r of results) {
    if (r.kind === 'skipped') continue;
    if (r.kind === 'invalid') {
      tests++;
      errors++;
      suites.push(
        `  <testsuite name="${xml(r.file)}" tests="1" failures="0" errors="1">\n    <testcase classname="${xml(r.file)}" name="parse blueprint"><error message="${xml(r.error.message)}">${xml(r.position ? describeInvalid(r) : r.error.issues.map((i) => `${i.pointer}: ${i.message}`).join('\n'))}</error></testcase>\n  </testsuite>`,
      );
      continue;
    }
    const ev = r.evaluation;
    const cases = ev.evaluated_codes.map((code) => {
      const v = ev.violations.find((x) => x.policy === code);
      const name = `${code} ${POLICY_BY_CODE.get(code)?.title ?? ''}`;
      if (!v) return `    <testcase classname="${xml(r.file)}" name="${xml(name)}"/>`;
      const details =
        v.failing_modules.map((m) => `module ${m.module_id} ${m.module_name}: ${m.reason}`).join('\n') || v.summary;
      if (v.status === 'warn')
        return `    <testcase classname="${xml(r.file)}" name="${xml(name)}"><system-out>${xml(`warn (${v.severity}): ${details}`)}</system-out></testcase>`;
      return `    <testcase classname="${xml(r.file)}" name="${xml(name)}"><failure type="${v.severity}" message="${xml(v.summary)}">${xml(details)}</failure></testcase>`;
    });
    const f = ev.violations.filter((v) => v.status === 'fail').length;
    tests += cases.length;
    failures += f;
    suites.push(
      `  <testsuite name="${xml(r.file)}" tests="${cases.length}" failures="${f}" errors="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="gov scan" tests="${tests}" failures="${failures}" errors="${errors}">\n${suites.join('\n')}\n</testsuites>\n`;
}
