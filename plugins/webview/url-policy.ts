// Which URLs the browser may load (config `urls`): the scheme of every navigation a caller
// asks for, and the host of every request when a host list is set. Hosts are names
// (`example.com`, `*.example.com`) or addresses and ranges (`127.0.0.0/8`); an address is
// matched in every spelling, and in the proxy a name is matched by what it resolves to too.
import { canonicalIp, IpRanges, LOOPBACK } from './ip-ranges.js';

export interface UrlPolicyConfig {
  readonly schemes: readonly string[];
  readonly allowHosts: readonly string[];
  readonly denyHosts: readonly string[];
  readonly denyPrivate: boolean;
}

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

/** One host list: names, and addresses or ranges. */
interface HostRules {
  readonly names: readonly string[];
  readonly ranges: IpRanges;
}

/** The one page every browser may show whatever the policy says: it holds nothing. */
const BLANK = 'about:blank';

export class UrlPolicy {
  readonly #schemes: ReadonlySet<string>;
  readonly #allow: HostRules;
  readonly #deny: HostRules;
  readonly #private: IpRanges | undefined;

  constructor(config: UrlPolicyConfig) {
    this.#schemes = new Set(config.schemes);
    this.#allow = rulesOf(config.allowHosts);
    this.#deny = rulesOf(config.denyHosts);
    this.#private = config.denyPrivate ? IpRanges.private() : undefined;
  }

  /** Whether the pages' own requests must be checked too, in the proxy (a host rule is set). */
  get filtersHosts(): boolean {
    return this.#allowing || this.#deny.names.length > 0 || this.#deny.ranges.size > 0 || this.#private !== undefined;
  }

  get #allowing(): boolean {
    return this.#allow.names.length > 0 || this.#allow.ranges.size > 0;
  }

  /** Whether a name passes allowHosts by itself (no list, or a name rule matches it). */
  allowsName(host: string): boolean {
    const name = normaliseHost(host);
    return !this.#allowing || this.#allow.names.some((rule) => matches(rule, name));
  }

  /**
   * A name's addresses, as the proxy resolved them before connecting: each is checked against
   * the ranges (a name allowed by name still may not resolve to a denied address).
   */
  checkAddresses(host: string, addresses: readonly string[]): UrlVerdict {
    const name = normaliseHost(host);
    const allowedByName = this.#allow.names.some((rule) => matches(rule, name));
    for (const address of addresses) {
      const ip = canonicalIp(address) ?? address;
      if (this.#deny.ranges.has(ip)) return { ok: false, reason: `the host ${name} resolves to ${ip}, which is in urls.denyHosts` };
      if (this.#private?.has(ip)) return { ok: false, reason: `the host ${name} resolves to ${ip}, a private address (urls.denyPrivate)` };
      if (this.#allowing && !allowedByName && !this.#allow.ranges.has(ip)) return { ok: false, reason: `the host ${name} (${ip}) is not in urls.allowHosts` };
    }
    return { ok: true, url: name };
  }

  /** A URL a caller asked the browser to open: scheme, then host. */
  checkNavigation(raw: string): UrlVerdict {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: `"${clip(raw)}" is not an absolute URL; give one with its scheme, e.g. https://example.com/` };
    }
    if (url.href === BLANK) return { ok: true, url: BLANK };
    const scheme = url.protocol.slice(0, -1);
    // `localhost:8080` parses as the scheme localhost: with the path 8080.
    if (!this.#schemes.has(scheme) && /^[a-z][a-z0-9+.-]*:\d*(\/|$)/i.test(raw.trim()) && !raw.includes('//')) {
      return { ok: false, reason: `"${clip(raw)}" has no scheme; did you mean http://${clip(raw.trim())}${raw.includes('/') ? '' : '/'}?` };
    }
    if (!this.#schemes.has(scheme)) {
      return { ok: false, reason: `the scheme ${scheme}: is not allowed (urls.schemes: ${[...this.#schemes].join(', ')})` };
    }
    return this.#checkHost(url);
  }

  /** A request a page makes (subresource, redirect, script navigation): host lists only. */
  checkRequest(raw: string): UrlVerdict {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'not a URL' };
    }
    return url.hostname === '' ? { ok: true, url: url.href } : this.#checkHost(url);
  }

  /** By the URL alone: a name by its rules, an address (any spelling) by the ranges. */
  #checkHost(url: URL): UrlVerdict {
    const host = normaliseHost(url.hostname);
    if (host === '') return { ok: true, url: url.href };
    const ip = canonicalIp(host);
    if (ip === undefined) {
      if (this.#deny.names.some((rule) => matches(rule, host))) return { ok: false, reason: `the host ${host} is in urls.denyHosts` };
      // A name not allowed by name may still resolve into an allowed range: the proxy decides.
      if (this.#allowing && this.#allow.ranges.size === 0 && !this.#allow.names.some((rule) => matches(rule, host))) {
        return { ok: false, reason: `the host ${host} is not in urls.allowHosts` };
      }
      return { ok: true, url: url.href };
    }
    const verdict = this.checkAddresses(host, [ip]);
    return verdict.ok ? { ok: true, url: url.href } : verdict;
  }
}

function rulesOf(rules: readonly string[]): HostRules {
  const ranges = new IpRanges();
  const names: string[] = [];
  for (const rule of rules.map(normaliseHost)) {
    if (ranges.add(rule)) continue;
    names.push(rule);
    // localhost names this machine: every loopback address, however it is spelt.
    if (rule === 'localhost') for (const range of LOOPBACK) ranges.add(range);
  }
  return { names, ranges };
}

/** `example.com` matches itself only; `*.example.com` matches every name under it, not itself. */
function matches(rule: string, host: string): boolean {
  return rule.startsWith('*.') ? host.endsWith(rule.slice(1)) : host === rule;
}

/** Lower case, no trailing dot, IPv6 without brackets: how URL and config spell hosts alike. */
function normaliseHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
