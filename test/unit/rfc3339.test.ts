/** The one parser of outside timestamps (model/rfc3339; issue 31, item 5): RFC 3339 §5.6 only, real calendar dates, an explicit offset. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { isFullDate, parseDateTime } from '../../src/model/rfc3339.js';

it('reads RFC 3339 date-times with Z or an offset as the instant they name', () => {
  const cases: [string, string][] = [
    ['2027-01-31T12:00:00Z', '2027-01-31T12:00:00.000Z'],
    ['2027-01-31t12:00:00z', '2027-01-31T12:00:00.000Z'],
    ['2027-02-28T23:30:00-01:00', '2027-03-01T00:30:00.000Z'],
    ['2027-03-01T00:30:00+01:00', '2027-02-28T23:30:00.000Z'],
    ['2027-03-01T00:00:00-00:00', '2027-03-01T00:00:00.000Z'],
    ['2027-03-01T00:00:00.5Z', '2027-03-01T00:00:00.500Z'],
    ['2027-03-01T00:00:00.123456789Z', '2027-03-01T00:00:00.123Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
  ];
  for (const [text, iso] of cases) assert.equal(new Date(parseDateTime(text)!).toISOString(), iso, text);
});

it('refuses impossible dates and times, a missing offset, a date alone, a space for T and other shapes', () => {
  for (const text of [
    '2027-02-30T00:00:00Z', // no 30 February
    '2027-02-29T00:00:00Z', // 2027 is not a leap year
    '1900-02-29T00:00:00Z', // a century that is not a leap year
    '2027-04-31T00:00:00Z',
    '2027-13-01T00:00:00Z',
    '2027-00-10T00:00:00Z',
    '2027-01-00T00:00:00Z',
    '2027-01-01T24:00:00Z',
    '2027-01-01T23:60:00Z',
    '2027-06-30T23:59:60Z', // a leap second: JavaScript time has none
    '2027-01-01T00:00:00', // no offset: never the reader's local zone
    '2027-01-01', // a date alone
    '2027-01-01 00:00:00Z', // a space for T
    '2027-01-01T00:00:00+0100',
    '2027-01-01T00:00:00+01',
    '2027-01-01T00:00:00+24:00',
    '2027-01-01T00:00:00+01:60',
    '2027-01-01T00:00Z',
    '2027-01-01T00:00:00.Z',
    ' 2027-01-01T00:00:00Z',
    '2027-01-01T00:00:00Z\n',
    '+02027-01-01T00:00:00Z',
    '27-01-01T00:00:00Z',
    'Fri, 01 Jan 2027 00:00:00 GMT',
    '1798761600000',
    '',
  ])
    assert.equal(parseDateTime(text), null, JSON.stringify(text));
});

it('checks full-dates against the calendar, leap years included', () => {
  for (const good of ['2027-01-31', '2027-02-28', '2028-02-29', '2000-02-29', '2027-12-31'])
    assert.ok(isFullDate(good), good);
  for (const bad of [
    '2027-02-30',
    '2027-02-29',
    '2100-02-29',
    '2027-04-31',
    '2027-13-01',
    '2027-1-1',
    '2027-01-31T00:00:00Z',
    '',
  ])
    assert.ok(!isFullDate(bad), bad);
});
