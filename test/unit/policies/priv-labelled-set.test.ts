/** PRIV rules from the issue 14 labelled set: Text parser captures, hosted databases, form question titles. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, breakHandler, m } from '../../helpers/blueprints.js';
import { failingIds, passes, violationOf } from '../../helpers/policy-assert.js';
import { captureLabels } from '../../../src/engine/regex-captures.js';

const mail = m(1, 'email:TriggerNewEmail', { parameters: { folder: 'INBOX' } });
const parser = (pattern: string) => m(2, 'regexp:Parser', { parameters: { pattern, global: false, multiline: true }, mapper: { text: '{{1.text}}' } });
const post = (id: number, data: string) => m(id, 'http:MakeRequest', { version: 4, mapper: { url: 'https://api.crm-vendor.io/Organisations', method: 'post', body: data }, onerror: breakHandler(id + 100) });
const QUOTE = 'Full\\s+Name\\s*:\\s*(\\S+)\\s+(.*?)\\nEmail\\s+Address\\s*:\\s*(.*?)\\nCompany\\s+Name\\s*:\\s*(.*?)\\nCountry\\s*:\\s*(.*?)\\nMessage\\s*:\\s*(.*?)\\n';

describe('capture labels of a Text parser pattern', () => {
  it('names each group by the literal text before it; a group after only whitespace continues the previous one', () => {
    assert.deepEqual([...captureLabels(QUOTE)], [['$1', 'Full Name'], ['$2', 'Full Name'], ['$3', 'Email Address'], ['$4', 'Company Name'], ['$5', 'Country'], ['$6', 'Message']]);
  });
  it('reads lookbehinds and named groups, and leaves tags, bare groups and generic names unlabelled', () => {
    assert.deepEqual([...captureLabels('(?<=Location:)(.*?)(?=Affiliation)')], [['$1', 'Location']]);
    assert.deepEqual([...captureLabels('/d/(?<docId>[^/]+)/')], [['docId', 'docId'], ['$1', 'docId']]);
    assert.deepEqual([...captureLabels('(?<json>\\{[\\s\\S]*\\})')], [['json', null], ['$1', null]]);
    assert.deepEqual([...captureLabels('<h4[^>]*class="x"[^>]*>(.*?)<\\/h4>')], [['$1', null]]);
    assert.deepEqual([...captureLabels('(\\w+@\\w+\\.com)')], [['$1', null]]);
  });
});

describe('PRIV-2 and PRIV-3 on captures of a personal e-mail', () => {
  it('do not report a request carrying only the company name and country captures', () => {
    const b = bp([mail, parser(QUOTE), post(3, '{"OrganisationName":"{{2.$4}}","OrganisationCountry":"{{2.`$5`}}"}')]);
    passes(b, 'PRIV-2');
    passes(b, 'PRIV-3');
  });
  it('report the captures labelled as a name, an address or the message, by kind', () => {
    const b = bp([mail, parser(QUOTE), post(3, '{"OrganisationName":"{{2.$4}}"}'), post(4, '{"PersonName":"{{2.$1}} {{2.$2}}","PersonEmail":"{{2.$3}}"}'), post(5, '{"Note":"{{2.$6}}"}')]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['4', '5']);
  });
  it('keep an unlabelled capture of a personal text personal (it may hold anything the person wrote)', () => {
    assert.deepEqual(failingIds(bp([mail, parser('^(.*)$'), post(3, '{"Note":"{{2.$1}}"}')]), 'PRIV-2'), ['3']);
  });
  it('judge a labelled capture of a text that is not personal by its name alone', () => {
    const page = m(1, 'http:ActionSendData', { mapper: { url: 'https://news.example.org/jobs', method: 'get' } });
    const p = m(2, 'regexp:Parser', { parameters: { pattern: 'Name:\\s*(.*?)\\nEmail:\\s*(.*?)\\n' }, mapper: { text: '{{1.data}}' } });
    assert.deepEqual(failingIds(bp([page, p, post(3, '{"a":"{{2.$1}}"}'), post(4, '{"b":"{{2.$2}}"}')]), 'PRIV-2'), ['4']);
  });
});

describe('PRIV-2 to a hosted database', () => {
  const hook = m(1, 'gateway:CustomWebHook', { parameters: { hook: 7 } });
  const put = (id: number, url: string) => m(id, 'http:MakeRequest', { version: 4, mapper: { url, method: 'put', body: '{"phone":"{{1.phone}}","email":"{{1.email}}"}' }, onerror: breakHandler(id + 100) });
  it('is low for the operator\'s own Firebase or Supabase database, medium for any other host', () => {
    const b = bp([hook, put(2, 'https://shop-default-rtdb.firebaseio.com/users/{{1.phone}}.json'), put(3, 'https://abcd1234.supabase.co/rest/v1/leads'), put(4, 'https://partner-api.example.net/leads')]);
    assert.deepEqual(failingIds(b, 'PRIV-2'), ['2', '3', '4']);
    const v = violationOf(b, 'PRIV-2')!;
    assert.deepEqual(v.failing_modules.map((f) => f.severity), ['low', 'low', 'medium']);
  });
  it('does not take a look-alike host (firebaseio.com.evil.example) for a database', () => {
    const v = violationOf(bp([hook, put(2, 'https://firebaseio.com.evil.example/x')]), 'PRIV-2')!;
    assert.deepEqual(v.failing_modules.map((f) => f.severity), ['medium']);
  });
});
