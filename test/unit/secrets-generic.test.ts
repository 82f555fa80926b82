/**
 * Secrets of no well-known format (issue 14 item 5) and placeholders (item 8), at the scanner level:
 * each detector with a positive fixture and `ok:` look-alikes. Shapes follow the make-extra corpus
 * (MANIFEST categories 1 and 4); every value is our own fake.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPlaceholder, redact, scanForSecrets } from '../../src/engine/secrets/scan.js';
import { fakeToken } from '../helpers/blueprints.js';

const hex = '0123456789abcdef';
const HEX = '0123456789ABCDEF';
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const uuid = (seed: number) =>
  `${fakeToken(seed, 8, hex)}-${fakeToken(seed + 1, 4, hex)}-4${fakeToken(seed + 2, 3, hex)}-a${fakeToken(seed + 3, 3, hex)}-${fakeToken(seed + 4, 12, hex)}`;
/** The secret parts a scan reports, as substrings. */
const found = (text: string, field: string | null = null) =>
  scanForSecrets(text, field).map((f) => text.slice(f.start, f.end));

describe('URL path credentials', () => {
  it('finds an API key as the path segment of an API that takes it there (ExchangeRate-API /v6/<key>/latest)', () => {
    const key = fakeToken(101, 24, hex);
    assert.deepEqual(found(`https://v6.exchangerate-api.com/v6/${key}/latest/USD`, 'url'), [key]);
  });
  it('finds both halves of instance credentials (/instances/<id>/token/<token>), on a known host or a clone', () => {
    const id = fakeToken(102, 32, HEX);
    const token = fakeToken(103, 24, HEX);
    assert.deepEqual(found(`https://api.z-api.io/instances/${id}/token/${token}/contacts/{{1.phone}}`, 'url'), [
      id,
      token,
    ]);
    assert.deepEqual(found(`https://api.w-api.example/instances/${id}/token/${token}/send-text`, 'url'), [id, token]);
  });
  it('finds the segment after a key keyword (/with/key/<k>) and a webhook token as the last segment (/webhook/send/<70>)', () => {
    const key = fakeToken(104, 22, alnum);
    assert.deepEqual(found(`https://maker.ifttt.com/trigger/new_row/with/key/${key}`, 'url'), [key]);
    const hook = fakeToken(105, 70, alnum);
    assert.deepEqual(found(`https://notify.example.net/webhook/send/${hook}`, 'url'), [hook]);
  });
  it('finds a UUID-shaped token in a credential query parameter (Browserless ?token=<uuid>)', () => {
    const token = uuid(106);
    assert.deepEqual(found(`https://chrome.browserless.io/screenshot?token=${token}`, 'url'), [token]);
  });
  it('ok: record ids in REST paths, a webhook endpoint without a token, words after /webhooks/, a truncated or masked key', () => {
    for (const url of [
      `https://api.notion.com/v1/databases/${fakeToken(107, 32, hex)}/query`,
      `https://api.example.com/v2/records/${uuid(108)}`,
      'https://api.github.com/repos/acme/site/keys/98231746503918274',
      'https://rokawhats.onrender.com/api/inbox/webhook',
      'https://api.example.com/webhooks/orders/created',
      `https://maker.ifttt.com/trigger/only_text/with/key/${fakeToken(109, 17, alnum)}xxxx`,
      `https://docs.google.com/spreadsheets/d/1${fakeToken(110, 43, alnum)}/edit`,
      `https://drive.google.com/uc?export=download&id=1${fakeToken(111, 32, alnum)}`,
    ])
      assert.deepEqual(found(url, 'url'), [], url);
  });
});

describe('placeholders are never secrets, wherever they stand (item 8)', () => {
  it('ok: placeholders in a webhook path, a query, a header, a body and a variable', () => {
    for (const [text, field] of [
      ['https://discord.com/api/webhooks/1234567890/PleaseReplaceWithYourWEBHOOK', 'url'],
      ['https://hooks.slack.com/services/TXXXXXXXX/BXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX', 'url'],
      ['https://api.example.com/v1?api_key=YOUR_API_KEY_HERE&q=1', 'url'],
      ['https://api.example.com/key/<your-api-key>/data', 'url'],
      ['Bearer YOUR_GROQ_API_KEY', 'Authorization'],
      ['your-api-key-here', 'apikey'],
      ['Your API KEY', 'token'],
      ['changeme', 'password'],
      ['aaaaaaaaaaaaaaaaaaaa', 'x-api-key'],
      ['<token>', 'Authorization'],
      ['{"api_key": "REPLACE_WITH_YOUR_KEY", "secret": "xxxxxxxxxxxxxxxx"}', 'data'],
    ] as const)
      assert.deepEqual(found(text, field), [], text);
    for (const p of [
      'PleaseReplaceWithYourWEBHOOK',
      'YourWebhookToken',
      'YOUR_CONNECTION_ID',
      'changeme',
      '0000000000000000',
      '***redacted***',
    ])
      assert.ok(isPlaceholder(p), p);
    assert.ok(!isPlaceholder(fakeToken(112, 32, alnum)));
  });
});

describe('credential-named fields: by name, whatever the entropy', () => {
  it('finds a readable shared secret in a secret-named header and a literal password in a mapper field', () => {
    assert.deepEqual(found('orchard_gate_signal_2031', 'x-webhook-secret'), ['orchard_gate_signal_2031']);
    const password = `${fakeToken(113, 5, alnum)}!${fakeToken(114, 5, alnum)}#${fakeToken(115, 4, alnum)}`;
    assert.deepEqual(found(password, 'ownerPassword'), [password]);
    const token = `F${fakeToken(116, 32, hex)}S`;
    assert.deepEqual(found(token, 'Client-Token'), [token]);
  });
  it('ok: generic names with record-shaped values, pagination cursors, words', () => {
    assert.deepEqual(found(uuid(117), 'key'), []);
    assert.deepEqual(found(fakeToken(118, 32, hex), 'key'), []);
    assert.deepEqual(found(fakeToken(119, 24, alnum), 'nextPageToken'), []);
    assert.deepEqual(found('Bearer', 'token_type'), []);
    assert.deepEqual(found('application/json', 'Content-Type'), []);
  });
});

describe('context in free text (gitleaks generic-api-key practice)', () => {
  it('finds a credential assigned to a credential-named key in a JSON body, a script and a `{name, value}` pair', () => {
    const a = fakeToken(120, 40, alnum);
    assert.deepEqual(found(`{\n  "model": "x",\n  "api_key": "${a}"\n}`), [a]);
    const b = fakeToken(121, 32, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
    assert.deepEqual(found(`{ "issuer": "https://acc.example.com", "secret": "${b}", "algorithm": "SHA1" }`), [b]);
    const c = fakeToken(122, 30, alnum);
    assert.deepEqual(found(`const PASSWORD = '${c}';`), [c]);
    const d = fakeToken(123, 36, alnum);
    assert.deepEqual(found(`[{"name": "X-Api-Key", "value": "${d}"}]`), [d]);
  });
  it('finds a Bearer token anywhere (a filter operand, a message)', () => {
    const t = fakeToken(124, 40, alnum);
    assert.deepEqual(found(`Bearer ${t}`, 'b'), [t]);
    assert.deepEqual(found(`curl -H "Authorization: Bearer ${t}" https://api.example.com`), [t]);
  });
  it('finds every session cookie of a browser cookie export pasted as JSON text', () => {
    const session = fakeToken(125, 64, hex);
    const csrf = fakeToken(126, 86, alnum);
    const jar = JSON.stringify(
      {
        cookie: [
          {
            domain: '.app.example.com',
            hostOnly: false,
            httpOnly: true,
            name: 'sid',
            path: '/',
            secure: true,
            session: true,
            value: session,
          },
          {
            domain: '.app.example.com',
            hostOnly: false,
            httpOnly: false,
            name: 'AB_VARIANT',
            path: '/',
            value: '25Q2_UC_AB59',
          },
          { domain: 'app.example.com', hostOnly: true, httpOnly: false, name: 'X-CSRF-TOKEN', path: '/', value: csrf },
        ],
        count: 20,
      },
      null,
      4,
    );
    assert.deepEqual(found(jar, 'inputBody'), [session, csrf]);
  });
  it('ok: record ids, hashes, data URIs and mapped values in bodies; prose about tokens', () => {
    for (const text of [
      `{"workspaceId": "${uuid(127)}", "phone": "{{1.phone}}"}`,
      `{"sha256": "${fakeToken(128, 64, hex)}", "key": "${uuid(129)}"}`,
      `{"image": "data:image/png;base64,iVBORw0KGgo${fakeToken(130, 200, alnum)}"}`,
      '{"token": "{{1.token}}", "Authorization": "Bearer {{9.value}}"}',
      'The bearer token expires after one hour: ask the admin for a new one.',
      'secret: short',
    ])
      assert.deepEqual(found(text), [], text);
  });
});

describe('evidence', () => {
  it('redacts every secret and shows the context of the first one even deep in a long string', () => {
    const csrf = fakeToken(131, 86, alnum);
    const text = `${'{"filler": "none", '.repeat(30)}"X-CSRF-TOKEN": "${csrf}"}`;
    const out = redact(text, scanForSecrets(text, null));
    assert.ok(!out.includes(csrf.slice(4, 20)));
    assert.match(out, /X-CSRF-TOKEN": "….{0,4}…\[REDACTED 86 chars\]|X-CSRF-TOKEN": ".{0,4}…\[REDACTED 86 chars\]/);
  });
});
