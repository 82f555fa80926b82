/** The console accounts' password policy (server/console/password-policy; issue 31, item 4), shared by the console and the admin CLI. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD_LENGTH, passwordProblem } from '../../src/server/console/password-policy.js';

const EMAIL = 'Ops.Lead@Example.com';

it('accepts 12 to 1,024 characters, counted as code points, and refuses anything else', async () => {
  assert.deepEqual(PASSWORD_LENGTH, { min: 12, max: 1024 });
  const length = 'must be 12 to 1024 characters';
  for (const bad of [
    'a',
    'x7#kQ9!mZp2',
    'x'.repeat(1025),
    '😀'.repeat(6),
    undefined,
    null,
    123456789012,
    ['x'.repeat(12)],
  ])
    assert.equal(await passwordProblem(bad, EMAIL), length, JSON.stringify(bad));
  for (const good of ['x7#kQ9!mZp2v', 'y'.repeat(1024), '😀'.repeat(12), 'correct horse battery staple'])
    assert.equal(await passwordProblem(good, EMAIL), null, good.slice(0, 30));
});

it("refuses the account's e-mail address, its local part, and a password containing the address, case-insensitively", async () => {
  const message = "must not be or contain the account's e-mail address";
  for (const bad of [
    'ops.lead@example.com',
    'OPS.LEAD@EXAMPLE.COM',
    'ops.lead@example.com!!',
    'OPS.LEAD@example.COM2026',
  ])
    assert.equal(await passwordProblem(bad, EMAIL), message, bad);
  assert.equal(await passwordProblem('ops.lead@example.com', `  ${EMAIL} `), message, 'the address trimmed');
  assert.equal(await passwordProblem('administrator', 'Administrator@acme.test'), message, 'the local part');
  assert.equal(await passwordProblem('ops.lead-on-call', EMAIL), null, 'containing the local part is allowed');
  assert.equal(await passwordProblem('ops.lead@example.com', ''), null, 'no address to compare with');
});

it('refuses passwords of the common-password list, whatever their case, and never repeats the password', async () => {
  for (const bad of ['password1234', 'Password1234', 'QWERTYUIOP123', '1qaz2wsx3edc']) {
    const problem = await passwordProblem(bad, EMAIL);
    assert.equal(problem, 'is a commonly used password (found in password breach lists)', bad);
    assert.ok(!problem.toLowerCase().includes(bad.toLowerCase()));
  }
});
