/**
 * Custom rules (issue 17) on the fixture corpus and on real corpus blueprints (test/helpers/corpus.ts,
 * read in place, when present): the expected module ids are derived from each blueprint's JSON in the test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corpusJson, corpusSuite, type CorpusName } from '../helpers/corpus.js';
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

  const firesOnUnhandled = (file: string, corpus: CorpusName) => () => {
    const all = modulesOf(file, corpus).filter((x) => writes.includes(x.module));
    const unhandled = all.filter((x) => (x.onerror ?? []).length === 0).map((x) => String(x.id));
    assert.ok(unhandled.length > 0 && unhandled.length < all.length, 'the blueprint has handled and unhandled writes');
    assert.deepEqual(sorted(ruleFires(rule, corpusJson(file, corpus))), sorted(unhandled));
  };
  const quietWithoutSheets = (file: string, corpus: CorpusName) => () => {
    assert.equal(
      modulesOf(file, corpus).some((x) => x.module.startsWith('google-sheets:')),
      false,
    );
    assert.deepEqual(ruleFires(rule, corpusJson(file, corpus)), []);
  };

  it(
    'fires on every unhandled Sheets write of fixtures order-webhook-router, not on the handled one',
    firesOnUnhandled('order-webhook-router.blueprint.json', 'fixtures'),
  );
  it(
    'does not fire on fixtures price-alert, which has no Sheets module',
    quietWithoutSheets('price-alert.blueprint.json', 'fixtures'),
  );
  corpusSuite('on the make corpus', ['make'], ({ it }) => {
    it(
      'fires on every unhandled Sheets write of make cainisable-5-socials-posting, not on the handled one',
      firesOnUnhandled('cainisable-5-socials-posting.blueprint.json', 'make'),
    );
    it(
      'does not fire on make chaumeister-daily-quote-generator, which has no Sheets module',
      quietWithoutSheets('chaumeister-daily-quote-generator.blueprint.json', 'make'),
    );
  });
});

describe('HTTP calls only to approved hosts (domain_not_in)', () => {
  const hostOf = (url: unknown) => new URL(String(url).replace(/\{\{[^}]*\}\}/g, 'x')).hostname;

  /** `domain_not_in: [wildcard, exact]` fires on exactly the HTTP modules whose host is neither. */
  const firesOffList = (file: string, corpus: CorpusName, wildcard: string, exact: string) => () => {
    const approved = (host: string) => host.endsWith(wildcard.slice(1)) || host === exact;
    const rule = { all: [{ app: 'http' }, { field: '/mapper/url', domain_not_in: [wildcard, exact] }] };
    const http = modulesOf(file, corpus).filter((x) => x.module.startsWith('http:'));
    const expected = http.filter((x) => !approved(hostOf(x.mapper?.['url']))).map((x) => String(x.id));
    assert.ok(expected.length > 0 && expected.length < http.length, 'approved and other hosts');
    assert.deepEqual(sorted(ruleFires(rule, corpusJson(file, corpus))), sorted(expected));
  };
  /** The only host a blueprint's HTTP modules call, approved: the rule is quiet. */
  const quietOnOneHost = (file: string, corpus: CorpusName, host: string) => () => {
    const http = modulesOf(file, corpus).filter((x) => x.module.startsWith('http:'));
    assert.ok(http.length > 0 && http.every((x) => hostOf(x.mapper?.['url']) === host));
    const rule = { all: [{ app: 'http' }, { field: '/mapper/url', domain_not_in: [host] }] };
    assert.deepEqual(ruleFires(rule, corpusJson(file, corpus)), []);
  };

  it(
    'fires on the HTTP modules of fixtures secrets-everywhere whose host is not approved',
    firesOffList('secrets-everywhere.blueprint.json', 'fixtures', '*.googleapis.com', 'api.github.com'),
  );
  it(
    'does not fire on fixtures price-alert, which calls only api.prices.example',
    quietOnOneHost('price-alert.blueprint.json', 'fixtures', 'api.prices.example'),
  );
  corpusSuite('on the make and make-extra corpora', ['make', 'make-extra'], ({ it }) => {
    it(
      'fires on the HTTP modules of make luxisoft-automatizacion-venta whose host is not approved',
      firesOffList('luxisoft-automatizacion-venta.blueprint.json', 'make', '*.firebaseio.com', 'graph.facebook.com'),
    );
    it(
      'does not fire on make-extra fostercare123-infomail-webcrm-automation, which calls only api.webcrm.com',
      quietOnOneHost('fostercare123-infomail-webcrm-automation.blueprint.json', 'make-extra', 'api.webcrm.com'),
    );
  });
});

describe('No personal data over raw HTTP (value_from: personal)', () => {
  const rule = { all: [{ app: 'http' }, { value_from: 'personal' }] };

  const firesWithPriv2 = (file: string, corpus: CorpusName) => () => {
    const blueprint = corpusJson(file, corpus);
    const priv2 = failingIds(blueprint, 'PRIV-2');
    assert.ok(priv2.length > 0);
    assert.deepEqual(sorted(ruleFires(rule, blueprint)), sorted(priv2));
  };
  const quietOnPrices = (file: string, corpus: CorpusName) => () => {
    assert.ok(modulesOf(file, corpus).some((x) => x.module.startsWith('http:')));
    assert.deepEqual(ruleFires(rule, corpusJson(file, corpus)), []);
  };

  it(
    'fires on fixtures order-webhook-router exactly where PRIV-2 sees personal data sent over HTTP',
    firesWithPriv2('order-webhook-router.blueprint.json', 'fixtures'),
  );
  it(
    'does not fire on fixtures price-alert (a price API, no personal data)',
    quietOnPrices('price-alert.blueprint.json', 'fixtures'),
  );
  corpusSuite('on the make corpus', ['make'], ({ it }) => {
    it(
      'fires on make luxisoft-automatizacion-venta exactly where PRIV-2 sees personal data sent over HTTP',
      firesWithPriv2('luxisoft-automatizacion-venta.blueprint.json', 'make'),
    );
    it(
      'does not fire on make bicced-automated-crypto-price-tracker (a price API, no personal data)',
      quietOnPrices('bicced-automated-crypto-price-tracker-for-discord-btc-eth-via-coingecko.blueprint.json', 'make'),
    );
  });
});
