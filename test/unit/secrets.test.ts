/** Secret detection: well-known formats (our own fakes), URLs, credential fields, placeholders, redaction. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPlaceholder, redact, scanForSecrets } from '../../src/engine/secrets/scan.js';
import { fakeToken } from '../helpers/blueprints.js';

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const hex = '0123456789abcdef';
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** One fake per known format, built from the format's documented prefix, length and alphabet. */
const FAKES: [string, string][] = [
  ['aws-access-key-id', `AKIA${fakeToken(1, 16, upper)}`],
  ['github-token', `ghp_${fakeToken(2, 36, alnum)}`],
  ['github-fine-grained-pat', `github_pat_${fakeToken(3, 82, alnum)}`],
  ['gitlab-token', `glpat-${fakeToken(4, 20, alnum)}`],
  ['slack-token', `xoxb-${fakeToken(5, 12, '0123456789')}-${fakeToken(6, 24, alnum)}`],
  ['stripe-secret-key', `sk_live_${fakeToken(7, 32, alnum)}`],
  ['anthropic-api-key', `sk-ant-api03-${fakeToken(8, 93, alnum)}`],
  ['openai-api-key', `sk-proj-${fakeToken(9, 48, alnum)}`],
  ['groq-api-key', `gsk_${fakeToken(10, 52, alnum)}`],
  ['google-api-key', `AIza${fakeToken(11, 35, alnum)}`],
  ['meta-graph-access-token', `EAA${fakeToken(12, 180, alnum)}`],
  ['sendgrid-api-key', `SG.${fakeToken(13, 22, alnum)}.${fakeToken(14, 43, alnum)}`],
  ['mailgun-api-key', `key-${fakeToken(15, 32, hex)}`],
  ['twilio-api-key', `SK${fakeToken(16, 32, hex)}`],
  ['shopify-access-token', `shpat_${fakeToken(17, 32, hex)}`],
  ['airtable-pat', `pat${fakeToken(18, 14, alnum)}.${fakeToken(19, 64, hex)}`],
  ['notion-token', `ntn_${fakeToken(20, 46, alnum)}`],
  ['npm-token', `npm_${fakeToken(21, 36, alnum)}`],
  ['telegram-bot-token', `${fakeToken(22, 10, '123456789')}:AA${fakeToken(23, 33, alnum)}`],
  ['jwt', `eyJ${fakeToken(24, 30, alnum)}.eyJ${fakeToken(25, 60, alnum)}.${fakeToken(26, 43, alnum)}`],
  ['private-key', '-----BEGIN RSA PRIVATE KEY-----'],
];

describe('scanForSecrets', () => {
  for (const [kind, value] of FAKES) {
    it(`detects a ${kind} embedded in text`, () => {
      const found = scanForSecrets(`prefix ${value} suffix`, null);
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0]!.kind, kind);
    });
  }

  it('detects webhook URLs whose path is the secret', () => {
    assert.equal(
      scanForSecrets(`https://hook.eu2.make.com/${fakeToken(30, 32, lower)}`, 'url')[0]?.kind,
      'make-webhook-url-token',
    );
    assert.equal(
      scanForSecrets(`<https://hook.eu1.make.celonis.com/${fakeToken(31, 32, lower)}?x=1|Run>`, 'text')[0]?.kind,
      'make-webhook-url-token',
    );
    assert.equal(
      scanForSecrets(
        `https://hooks.slack.com/services/T${fakeToken(32, 8, upper)}/B${fakeToken(33, 8, upper)}/${fakeToken(34, 24, alnum)}`,
        'url',
      )[0]?.kind,
      'slack-webhook-url',
    );
    assert.equal(
      scanForSecrets(`https://discord.com/api/webhooks/123456789012345678/${fakeToken(35, 68, alnum)}`, 'url')[0]?.kind,
      'discord-webhook-url',
    );
  });

  it('detects credential query parameters and basic-auth passwords, not mapped ones', () => {
    assert.equal(
      scanForSecrets(`https://x.firebaseio.com/a.json?auth=${fakeToken(36, 40, alnum)}`, 'url')[0]?.kind,
      'firebase-database-secret',
    );
    assert.equal(
      scanForSecrets(`https://chrome.example.io/screenshot?token=${fakeToken(37, 40, alnum)}`, 'url')[0]?.kind,
      'url-query-credential',
    );
    assert.equal(scanForSecrets('https://x.example.com/a?auth={{3.token}}', 'url').length, 0);
    assert.equal(
      scanForSecrets(`https://admin:${fakeToken(37, 16, alnum)}@db.example.com/`, 'url')[0]?.kind,
      'url-basic-auth',
    );
  });

  it('judges unknown formats in credential fields by entropy', () => {
    assert.equal(scanForSecrets(`Token ${fakeToken(38, 40, alnum)}`, 'Authorization')[0]?.kind, 'credential-field');
    assert.equal(scanForSecrets(fakeToken(38, 40, alnum), 'description').length, 0);
    assert.equal(scanForSecrets('application/json', 'Content-Type').length, 0);
  });

  it('takes the Bearer scheme as context wherever it stands (a filter operand has no credential-named field)', () => {
    assert.equal(scanForSecrets(`Bearer ${fakeToken(38, 40, alnum)}`, 'description')[0]?.kind, 'bearer-token');
    assert.equal(scanForSecrets('Send the bearer token in the Authorization header.', 'description').length, 0);
  });

  it('never reports placeholders or mapped values', () => {
    for (const v of [
      'Bearer YOUR_API_KEY',
      '[SUPABASE_ANON_KEY]',
      'YOUR_API_KEY_HERE',
      '<token>',
      'xxxxxxxxxxxxxxxx',
      'Bearer {{3.token}}',
      '{{var.input.apiKey}}',
      'SUPABASE_ANON_KEY',
    ]) {
      assert.deepEqual(scanForSecrets(v, 'Authorization'), [], v);
    }
    assert.ok(isPlaceholder('YOUR_GROQ_API_KEY'));
    assert.ok(!isPlaceholder(fakeToken(39, 40, alnum)));
  });

  it('redacts every secret and keeps evidence short', () => {
    const secret = `ghp_${fakeToken(40, 36, alnum)}`;
    const text = `Bearer ${secret}`;
    const out = redact(text, scanForSecrets(text, 'Authorization'));
    assert.ok(!out.includes(secret.slice(4)));
    assert.match(out, /REDACTED 40 chars/);
  });
});
