/**
 * Issue 14: DI-1 severity from what a failure leaves behind: a failed delete leaves the data in place
 * (medium, like a write); a payment, and a change after one, is high. Real-shaped modules (names and
 * mapper keys of the corpus exports), our own values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bp, m } from '../../helpers/blueprints.js';
import { violationOf } from '../../helpers/policy-assert.js';

describe('DI-1 severity is what a failure leaves behind', () => {
  it('medium: a permanent delete, a data store delete and a clear leave the data in place when they fail', () => {
    const v = violationOf(
      bp(
        [
          m(1, 'google-drive:watchFilesInAFolder', { mapper: { folder: '/1abc', limit: '1' } }),
          m(13, 'google-drive:deleteAFile', { version: 4, mapper: { file: '{{1.id}}', select: 'map' } }),
          m(62, 'datastore:DeleteRecord', { parameters: { datastore: 73837 }, mapper: { key: '{{1.id}}' } }),
          m(3, 'google-sheets:clearValuesFromRange', {
            mapper: { from: 'drive', range: 'A2:I1000', sheet: 'Latest', spreadsheetId: '/1P0x' },
          }),
        ],
        { dlq: false },
      ),
      'DI-1',
    );
    assert.deepEqual(
      v!.failing_modules.map((f) => [f.module_id, f.severity]),
      [
        ['13', 'medium'],
        ['62', 'medium'],
        ['3', 'medium'],
      ],
    );
    assert.match(v!.failing_modules[0]!.reason, /leaves the data in place/);
  });

  it('high: a payment call and a record written after it; a write before the payment stays medium', () => {
    const transfer = m(5, 'http:ActionSendDataAPIKeyAuth', {
      parameters: { auth: 12 },
      mapper: {
        url: 'https://api.wallet.example.com/v1/send',
        method: 'post',
        bodyType: 'raw',
        contentType: 'application/json',
        data: '{"to":"{{2.to}}","amount":"{{2.amount}}"}',
        headers: [],
        qs: [],
      },
    });
    const v = violationOf(
      bp([
        m(1, 'google-sheets:watchRows', { mapper: { spreadsheetId: '/1abc', sheetId: 'Payouts', limit: '1' } }),
        m(2, 'google-sheets:updateRow', {
          mapper: {
            spreadsheetId: '/1abc',
            sheetId: 'Payouts',
            rowNumber: '{{1.__ROW_NUMBER__}}',
            values: { 3: 'Processing' },
          },
        }),
        transfer,
        m(6, 'google-sheets:addRow', {
          mapper: { spreadsheetId: '/1abc', sheetId: 'Ledger', values: { 0: '{{5.data.txid}}' } },
        }),
      ]),
      'DI-1',
    );
    assert.deepEqual(
      v!.failing_modules.map((f) => [f.module_id, f.severity]),
      [
        ['2', 'medium'],
        ['5', 'high'],
        ['6', 'high'],
      ],
    );
    assert.match(v!.failing_modules[2]!.reason, /after a payment .*module 5/);
  });
});
