/**
 * Custom rules (issue 17) on real corpus blueprints (read from /work/shared/corpus, never copied):
 * the expected module ids are derived from each blueprint's JSON in the test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusJson, type CorpusName } from '../helpers/corpus.js';
import { ruleFires } from '../helpers/rules.js';
import { failingIds } from '../helpers/policy-assert.js';

interface RawModule {
  readonly id: number | null;
  readonly module: string;
  readonly mapper?: Record<string, unknown> | null;
  readonly onerror?: readonly RawModule[];
  readonly routes?: readonly { readonly flow: readonly RawModule[] }[];
}

/** Every module of a blueprint's JSON: flows, router routes and error routes. */
function modulesOf(file: string, corpus: CorpusName): RawModule[] {
  const out: RawModule[] = [];
  const walk = (flow: readonly RawModule[] | undefined) => {
    for (const mod of flow ?? []) {
      out.push(mod);
      walk(mod.onerror);
      for (const r of mod.routes ?? []) walk(r.flow);
    }
  };
  walk((corpusJson(file, corpus) as { flow: RawModule[] }).flow);
  return out;
}

const sorted = (ids: readonly string[]) => [...ids].sort((a, b) => Number(a) - Number(b));

describe('Google Sheets writes must have an error handler', () => {
  const writes = ['google-sheets:addRow', 'google-sheets:updateRow'];
  const rule = { all: [{ module: writes }, { has_error_handler: false }] };

  it('fires on every unhandled Sheets write of make cainisable-5-socials-posting, not on the handled one', () => {
    const file = 'cainisable-5-socials-posting.blueprint.json';
    const all = modulesOf(file, 'make').filter((x) => writes.includes(x.module));
    const unhandled = all.filter((x) => (x.onerror ?? []).length === 0).map((x) => String(x.id));
    assert.ok(unhandled.length > 0 && unhandled.length < all.length, 'the blueprint has handled and unhandled writes');
    assert.deepEqual(sorted(ruleFires(rule, corpusJson(file, 'make'))), sorted(unhandled));
  });

  it('does not fire on make chaumeister-daily-quote-generator, which has no Sheets module', () => {
    const file = 'chaumeister-daily-quote-generator.blueprint.json';
    assert.equal(
      modulesOf(file, 'make').some((x) => x.module.startsWith('google-sheets:')),
      false,
    );
    assert.deepEqual(ruleFires(rule, corpusJson(file, 'make')), []);
  });
});

describe('HTTP calls only to approved hosts (domain_not_in)', () => {
  const hostOf = (url: unknown) => new URL(String(url).replace(/\{\{[^}]*\}\}/g, 'x')).hostname;

  it('fires on the HTTP modules of make luxisoft-automatizacion-venta whose host is not approved', () => {
    const file = 'luxisoft-automatizacion-venta.blueprint.json';
    const approved = (host: string) => host.endsWith('.firebaseio.com') || host === 'graph.facebook.com';
    const rule = {
      all: [{ app: 'http' }, { field: '/mapper/url', domain_not_in: ['*.firebaseio.com', 'graph.facebook.com'] }],
    };
    const expected = modulesOf(file, 'make')
      .filter((x) => x.module.startsWith('http:') && !approved(hostOf(x.mapper?.['url'])))
      .map((x) => String(x.id));
    assert.ok(expected.length > 0);
    assert.deepEqual(sorted(ruleFires(rule, corpusJson(file, 'make'))), sorted(expected));
  });

  it('does not fire on make-extra fostercare123-infomail-webcrm-automation, which calls only api.webcrm.com', () => {
    const file = 'fostercare123-infomail-webcrm-automation.blueprint.json';
    const http = modulesOf(file, 'make-extra').filter((x) => x.module.startsWith('http:'));
    assert.ok(http.length > 0 && http.every((x) => hostOf(x.mapper?.['url']) === 'api.webcrm.com'));
    const rule = { all: [{ app: 'http' }, { field: '/mapper/url', domain_not_in: ['api.webcrm.com'] }] };
    assert.deepEqual(ruleFires(rule, corpusJson(file, 'make-extra')), []);
  });
});

describe('No personal data over raw HTTP (value_from: personal)', () => {
  const rule = { all: [{ app: 'http' }, { value_from: 'personal' }] };

  it('fires on make luxisoft-automatizacion-venta exactly where PRIV-2 sees personal data sent over HTTP', () => {
    const blueprint = corpusJson('luxisoft-automatizacion-venta.blueprint.json', 'make');
    const priv2 = failingIds(blueprint, 'PRIV-2');
    assert.ok(priv2.length > 0);
    assert.deepEqual(sorted(ruleFires(rule, blueprint)), sorted(priv2));
  });

  it('does not fire on make bicced-automated-crypto-price-tracker (a price API, no personal data)', () => {
    const file = 'bicced-automated-crypto-price-tracker-for-discord-btc-eth-via-coingecko.blueprint.json';
    assert.ok(modulesOf(file, 'make').some((x) => x.module.startsWith('http:')));
    assert.deepEqual(ruleFires(rule, corpusJson(file, 'make')), []);
  });
});
