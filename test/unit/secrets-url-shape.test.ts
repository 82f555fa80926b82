/**
 * Keys in URLs are found by shape and context on any host (issue 32): a key right after an API
 * version, a Telegram `bot<id>:<token>` segment, a known format in a path segment or in any query
 * parameter, a credential-named parameter by its name's stem; no rule names an API host, only the
 * documented webhook catalog (Make, Slack, Discord, Zapier) and Firebase's database hosts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scanForSecrets } from '../../src/engine/secrets/scan.js';
import { fakeToken } from '../helpers/blueprints.js';

const hex = '0123456789abcdef';
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const uuid = (seed: number) =>
  `${fakeToken(seed, 8, hex)}-${fakeToken(seed + 1, 4, hex)}-4${fakeToken(seed + 2, 3, hex)}-a${fakeToken(seed + 3, 3, hex)}-${fakeToken(seed + 4, 12, hex)}`;
const found = (text: string, field: string | null = 'url') =>
  scanForSecrets(text, field).map((f) => `${f.kind}:${text.slice(f.start, f.end)}`);

describe('a key-shaped path segment, on any host', () => {
  it('finds a key right after the API version and before a method (/v1/<key>/send, /v6/<key>/latest/USD)', () => {
    const key = fakeToken(301, 40, alnum);
    assert.deepEqual(found(`https://api.example.org/v1/${key}/send`), [`url-path-credential:${key}`]);
    const hexKey = fakeToken(302, 24, hex);
    assert.deepEqual(found(`https://rates.example.net/v6/${hexKey}/latest/USD`), [`url-path-credential:${hexKey}`]);
    assert.deepEqual(found(`https://sms.example.io/api/v2.1/${fakeToken(303, 32, hex)}/messages`).length, 1);
  });
  it('finds a Telegram bot token as a `bot<id>:<token>` segment on any host (a local Bot API server, a proxy)', () => {
    const bot = `${fakeToken(304, 10, '123456789')}:AA${fakeToken(305, 33, alnum)}`;
    for (const host of ['api.telegram.org', 'tg-proxy.example.com', 'localhost:8081'])
      assert.deepEqual(found(`https://${host}/bot${bot}/sendMessage`), [`telegram-bot-token:${bot}`], host);
    assert.deepEqual(found(`https://api.telegram.org/file/bot${bot}/photos/file_1.jpg`), [`telegram-bot-token:${bot}`]);
  });
  it('finds a known key format as a path segment and in any query parameter, whatever its name', () => {
    const gh = `ghp_${fakeToken(306, 36, alnum)}`;
    assert.deepEqual(found(`https://relay.example.com/forward/${gh}/issues`), [`github-token:${gh}`]);
    const google = `AIza${fakeToken(307, 35, alnum)}`;
    assert.deepEqual(found(`https://maps.example.com/embed?q=cafe&client=${google}`), [`google-api-key:${google}`]);
  });
  it('finds a query credential by its name’s stem (HubSpot `hapikey`, GitLab `private_token`, `clientSecret`)', () => {
    for (const name of ['hapikey', 'private_token', 'clientSecret']) {
      const value = fakeToken(308, 32, alnum);
      assert.deepEqual(found(`https://api.example.com/contacts?${name}=${value}&limit=10`), [
        `url-query-credential:${value}`,
      ]);
    }
  });
  it('finds webhook tokens in Slack and Discord webhook paths (documented URL shapes) and after a hook keyword anywhere', () => {
    const slack = `T${fakeToken(309, 8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/B${fakeToken(310, 10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/${fakeToken(311, 24, alnum)}`;
    assert.deepEqual(found(`https://hooks.slack.com/services/${slack}`), [`slack-webhook-url:${slack}`]);
    const discord = fakeToken(312, 68, alnum);
    assert.deepEqual(found(`https://discord.com/api/webhooks/123456789012345678/${discord}`), [
      `discord-webhook-url:${discord}`,
    ]);
    assert.deepEqual(found(`https://chat.example.org/api/webhooks/123456789012345678/${discord}`), [
      `url-path-credential:${discord}`,
    ]);
  });
  it('ok: resource ids after a collection, ids after a version, words, numbers, files and short segments', () => {
    for (const url of [
      `https://api.example.com/v1/records/${fakeToken(320, 40, alnum)}`,
      `https://api.example.com/v1/${uuid(321)}/items`,
      `https://graph.example.com/v18.0/123456789012345/messages`,
      `https://api.example.com/v2/${fakeToken(322, 40, alnum)}`,
      `https://api.example.com/v1/${fakeToken(323, 16, alnum)}/send`,
      'https://api.example.com/v1/customer-records-export/download',
      `https://docs.example.com/v3/1${fakeToken(324, 43, alnum)}/edit`,
      `https://cdn.example.com/v1/${fakeToken(325, 40, alnum)}.png/view`,
      `https://api.example.com/v1/projects/${fakeToken(326, 24, hex)}/runs`,
    ])
      assert.deepEqual(found(url), [], url);
  });
});

describe('no secret rule names an API host', () => {
  it('urls.ts names only the documented webhook catalog and Firebase database hosts', () => {
    const source = readFileSync(fileURLToPath(new URL('../../../src/engine/secrets/urls.ts', import.meta.url)), 'utf8')
      .replace(/^\s*(?:\/\/|\/\*\*|\*).*$/gm, '') // comments may cite any host
      .replace(/\(\?:[a-z|]+\)\?/g, ''); // optional name parts in a host regex: `discord(?:app)?\.com`
    const hosts = new Set(
      [...source.matchAll(/[a-z0-9-]+(?:\\\.|\.)(?:com|io|org|net|app|ai)\b/g)].map((m) => m[0].replace(/\\\./g, '.')),
    );
    assert.deepEqual([...hosts].sort(), [
      'celonis.com',
      'discord.com',
      'firebasedatabase.app',
      'firebaseio.com',
      'integromat.com',
      'make.com',
      'slack.com',
      'zapier.com',
    ]);
  });
});
