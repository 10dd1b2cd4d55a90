import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddressGroup } from '../../../core/http/client-address.js';

describe('clientAddressGroup: what one client address is, for the caps and the rate limit', () => {
  const cases: Array<[string | undefined, string]> = [
    // Every loopback address is this machine.
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['127.255.3.4', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.9', 'loopback'],
    ['::ffff:7f00:2', 'loopback'],
    // IPv4 is itself, mapped or not.
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:C000:0207', '192.0.2.7'],
    ['128.0.0.1', '128.0.0.1'],
    // IPv6 counts by its /64, however it is written.
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0:0:0:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    ['::2', '0:0:0:0::/64'],
    // Not an address (a unix socket, a destroyed socket): one bucket, never a crash.
    [undefined, 'unknown'],
    ['', 'unknown'],
    ['not-an-address', 'not-an-address'],
  ];
  for (const [address, group] of cases) {
    it(`${address} → ${group}`, () => assert.equal(clientAddressGroup(address), group));
  }
});
