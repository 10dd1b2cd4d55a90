// IP addresses as the URL policy compares them: one spelling per address, and ranges
// (CIDR) to match them against. Chromium and the OS accept many spellings of one address
// (0.0.0.0 reaches this machine, ::ffff:127.0.0.1 is 127.0.0.1), so rules written for one
// spelling must hold for all of them.
import { BlockList, isIP } from 'node:net';

/** Ranges `urls.denyPrivate` refuses: loopback, private, link-local, unspecified, unique-local. */
const PRIVATE = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16', '::/128', '::1/128', 'fc00::/7', 'fe80::/10'];

/** What the name `localhost` stands for: the whole loopback range, not only 127.0.0.1. */
export const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/**
 * The address `host` names, in one spelling (IPv4 for a v4-mapped IPv6; the unspecified
 * address as loopback, since connecting to it reaches this machine), or undefined for a name.
 */
export function canonicalIp(host: string): string | undefined {
  const ip = spelling(host);
  return ip === '0.0.0.0' ? '127.0.0.1' : ip === '::' ? '::1' : ip;
}

/** One spelling of an address: lower case, compressed, v4-mapped IPv6 as IPv4. */
function spelling(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return undefined;
  const compact = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compact);
  if (!mapped) return compact;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** A set of ranges; `add` takes `10.0.0.0/8`, `::1/128` or one address. */
export class IpRanges {
  readonly #list = new BlockList();
  #size = 0;

  static private(): IpRanges {
    const ranges = new IpRanges();
    for (const range of PRIVATE) ranges.add(range);
    return ranges;
  }

  /** False when `rule` is neither an address nor a range (a host name). */
  add(rule: string): boolean {
    const [address = '', prefix, ...rest] = rule.split('/');
    const ip = prefix === undefined ? canonicalIp(address) : spelling(address);
    if (ip === undefined || rest.length > 0) return false;
    const type = isIP(ip) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) this.#list.addAddress(ip, type);
    else {
      const bits = Number(prefix);
      // A v4-mapped range (::ffff:10.0.0.0/104) is kept as its IPv4 range.
      const mapped = type === 'ipv4' && isIP(address.replace(/^\[(.*)\]$/, '$1')) === 6;
      const length = mapped ? bits - 96 : bits;
      if (!/^\d+$/.test(prefix) || length < 0 || length > (type === 'ipv4' ? 32 : 128)) return false;
      this.#list.addSubnet(ip, length, type);
    }
    this.#size++;
    return true;
  }

  get size(): number {
    return this.#size;
  }

  /** Whether the (canonical) address is in one of the ranges. */
  has(ip: string): boolean {
    return this.#list.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
  }
}
