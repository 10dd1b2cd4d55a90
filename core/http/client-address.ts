import { isIP } from 'node:net';

/** What every loopback address counts as. */
export const LOOPBACK_CLIENT = 'loopback';

/**
 * The client a connection's address counts as, for the per-address connection cap and the
 * rate limit of keyless requests:
 * - every loopback address (127.0.0.0/8, ::1, and their IPv4-mapped forms) is one client, this
 *   machine: any local process can bind any of them, so counting them apart gave one process
 *   16 million "addresses";
 * - an IPv4 address is itself (an IPv4-mapped IPv6 address counts as its IPv4 address);
 * - an IPv6 address counts by its /64, the smallest block a network gives a site: one host
 *   can take any address in it, as it can take no second IPv4 address.
 */
export function clientAddressGroup(address: string | undefined): string {
  if (!address) return 'unknown';
  // A link-local address carries its interface (fe80::1%eth0); the interface is no part of the address.
  const bare = address.split('%')[0]!.toLowerCase();
  const ipv4 = bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4 ? bare.slice(7) : bare;
  if (isIP(ipv4) === 4) return ipv4GroupOf(ipv4);
  if (isIP(bare) !== 6) return bare;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return ipv4GroupOf(`${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`);
  }
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return LOOPBACK_CLIENT;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

function ipv4GroupOf(address: string): string {
  return address.startsWith('127.') ? LOOPBACK_CLIENT : address;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail read as two groups. */
function ipv6Groups(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const front = groupsOf(head);
  const back = groupsOf(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

function groupsOf(part: string | undefined): number[] {
  if (!part) return [];
  return part.split(':').flatMap((piece) => {
    if (!piece.includes('.')) return [parseInt(piece, 16)];
    const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
    return [(a << 8) | b, (c << 8) | d];
  });
}
