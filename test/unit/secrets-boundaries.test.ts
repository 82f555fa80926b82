/**
 * Secret shapes end at their own boundary (issue 32): every known format, and every URL rule, is tried
 * with text glued after it (`open&`, `&x=1`, a quote, a slash). A format of documented length ends
 * at that length whatever follows; a format of no fixed length ends where its alphabet ends. The
 * secret is neither dropped (a lookahead refusing the glued word) nor taken with the word.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scanForSecrets } from '../../src/engine/secrets/scan.js';
import { SECRET_PATTERNS } from '../../src/engine/secrets/patterns.js';
import { fakeToken } from '../helpers/blueprints.js';

const hex = '0123456789abcdef';
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** One fake per known format (its documented prefix, length and alphabet). */
const FAKES: Readonly<Record<string, string>> = {
  'private-key': '-----BEGIN OPENSSH PRIVATE KEY-----',
  'aws-access-key-id': `AKIA${fakeToken(1, 16, upper)}`,
  'github-token': `ghp_${fakeToken(2, 36)}`,
  'github-fine-grained-pat': `github_pat_${fakeToken(3, 82)}`,
  'gitlab-token': `glpat-${fakeToken(4, 20)}`,
  'slack-token': `xoxb-${fakeToken(5, 12, '0123456789')}-${fakeToken(6, 24)}`,
  'stripe-secret-key': `sk_live_${fakeToken(7, 32)}`,
  'anthropic-api-key': `sk-ant-api03-${fakeToken(8, 93)}`,
  'openai-api-key': `sk-proj-${fakeToken(9, 48)}`,
  'groq-api-key': `gsk_${fakeToken(10, 52)}`,
  'huggingface-token': `hf_${fakeToken(11, 34, letters)}`,
  'google-api-key': `AIza${fakeToken(12, 35)}`,
  'google-oauth-client-secret': `GOCSPX-${fakeToken(13, 28)}`,
  'meta-graph-access-token': `EAA${fakeToken(14, 180)}`,
  'sendgrid-api-key': `SG.${fakeToken(15, 22)}.${fakeToken(16, 43)}`,
  'mailgun-api-key': `key-${fakeToken(17, 32, hex)}`,
  'mailchimp-api-key': `${fakeToken(18, 32, hex)}-us12`,
  'twilio-api-key': `SK${fakeToken(19, 32, hex)}`,
  'shopify-access-token': `shpat_${fakeToken(20, 32, hex)}`,
  'airtable-pat': `pat${fakeToken(21, 14)}.${fakeToken(22, 64, hex)}`,
  'notion-token': `ntn_${fakeToken(23, 46)}`,
  'supabase-secret-key': `sb_secret_${fakeToken(24, 31)}`,
  'supabase-access-token': `sbp_${fakeToken(25, 40, hex)}`,
  'hubspot-private-app-token': `pat-na1-${fakeToken(26, 8, hex)}-${fakeToken(27, 4, hex)}-${fakeToken(28, 4, hex)}-${fakeToken(29, 4, hex)}-${fakeToken(30, 12, hex)}`,
  'npm-token': `npm_${fakeToken(31, 36)}`,
  'telegram-bot-token': `${fakeToken(32, 10, '123456789')}:AA${fakeToken(33, 33)}`,
  jwt: `eyJ${fakeToken(34, 30)}.eyJ${fakeToken(35, 60)}.${fakeToken(36, 43)}`,
};

/** The secrets a scan finds in `text`, as substrings. */
const found = (text: string, field: string | null = null) =>
  scanForSecrets(text, field).map((f) => text.slice(f.start, f.end));

describe('every known format ends at its own boundary', () => {
  it('has a fake for every format of the table', () => {
    assert.deepEqual(Object.keys(FAKES).sort(), SECRET_PATTERNS.map((p) => p.kind).sort());
  });
  for (const p of SECRET_PATTERNS) {
    const value = FAKES[p.kind]!;
    it(`${p.kind} (${p.ends}): found whole before a delimiter, and ${p.ends === 'length' ? 'cut at its length' : 'taken to its alphabet’s end'} before a glued word`, () => {
      for (const suffix of ['&x=1', '"', ' open', '/next', '\n']) {
        const found1 = scanForSecrets(`v ${value}${suffix}`, null);
        assert.equal(found1.length, 1, `${p.kind} + ${JSON.stringify(suffix)}: ${JSON.stringify(found1)}`);
        assert.equal(found1[0]!.kind, p.kind);
        assert.equal(`v ${value}${suffix}`.slice(found1[0]!.start, found1[0]!.end), value);
      }
      const glued = `v ${value}open&x=1`;
      const f = scanForSecrets(glued, null);
      assert.equal(f.length, 1, `${p.kind} + open&: ${JSON.stringify(f)}`);
      assert.equal(f[0]!.kind, p.kind);
      // A format of no fixed length cannot tell a glued word of its alphabet from itself.
      assert.equal(glued.slice(f[0]!.start, f[0]!.end), p.ends === 'length' ? value : `${value}open`);
    });
  }
  it('a longer run of a format’s own alphabet is not taken for a key (AWS, Mailgun, Twilio, Supabase PAT)', () => {
    assert.deepEqual(found(`v AKIA${fakeToken(40, 20, upper)} v`), []);
    assert.deepEqual(found(`v key-${fakeToken(41, 40, hex)} v`), []);
    assert.deepEqual(found(`v SK${fakeToken(42, 40, hex)} v`), []);
    assert.deepEqual(found(`v sbp_${fakeToken(43, 48, hex)} v`), []);
  });
});

describe('URL rules end at their own boundary', () => {
  it('a Make webhook token followed directly by text is found, and only its 32 characters', () => {
    const token = fakeToken(50, 32, lower);
    for (const text of [
      `https://hook.eu2.make.com/${token}open&email={{1.email}}`,
      `<a href="https://hook.us1.make.com/${token}open&amp;id=7">Open</a>`,
      `https://hook.eu1.make.com/${token}?open&x=1`,
      `https://hook.eu1.make.com/${token}`,
    ])
      assert.deepEqual(found(text, 'text'), [token], text);
  });
  it('a Telegram bot token in the path ends at its segment, a query credential at its `&`', () => {
    const bot = `${fakeToken(51, 10, '123456789')}:AA${fakeToken(52, 33)}`;
    assert.deepEqual(found(`https://api.telegram.org/bot${bot}/sendMessage?chat_id=1`, 'url'), [bot]);
    const key = fakeToken(53, 40);
    assert.deepEqual(found(`https://api.example.org/data?api_key=${key}&open=1`, 'url'), [key]);
  });
});
