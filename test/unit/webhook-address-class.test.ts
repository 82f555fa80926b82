/** The one address rule of the webhook target guard (global unicast only), and its connect-time use on literal targets. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { addressRefusal, isGlobalUnicast } from '../../src/actors/webhooks/address-class.js';
import { BlockedTargetError, hostTargetError } from '../../src/actors/webhooks/target-guard.js';
import { ACCEPTED_ADDRESSES, REFUSED_ADDRESSES, urlHost } from '../helpers/address-forms.js';

it('refuses every address that is not global unicast, naming its range', () => {
  for (const [address, range] of REFUSED_ADDRESSES) {
    assert.equal(addressRefusal(address), range, address);
    assert.equal(isGlobalUnicast(address), false, address);
  }
});

it('accepts global unicast IPv4 and native IPv6', () => {
  for (const address of ACCEPTED_ADDRESSES) assert.equal(addressRefusal(address), null, address);
});

it('refuses forms that are not strict IP literals (never classified as public)', () => {
  for (const text of ['', 'example.com', '127.1', '0x7f.1', '2130706433', '0177.0.0.1', '[::1]'])
    assert.equal(addressRefusal(text), 'notAnAddress', text);
  assert.equal(addressRefusal('fe80::1%eth0'), 'linkLocal');
});

it('blocks refused literal targets before connecting, and lets global unicast ones through', () => {
  for (const [address] of REFUSED_ADDRESSES) {
    const err = hostTargetError(new URL(`https://${urlHost(address)}/x`), false);
    assert.ok(err instanceof BlockedTargetError, address);
    assert.equal(err.code, 'ERR_WEBHOOK_TARGET_BLOCKED');
    assert.match(err.message, /^blocked: /);
    assert.equal(hostTargetError(new URL(`https://${urlHost(address)}/x`), true), null, `${address} with allowPrivate`);
  }
  for (const address of ACCEPTED_ADDRESSES)
    assert.equal(hostTargetError(new URL(`https://${urlHost(address)}/x`), false), null, address);
  assert.equal(
    hostTargetError(new URL('https://hooks.example.com/x'), false),
    null,
    'names are checked by the lookup hook',
  );
});
