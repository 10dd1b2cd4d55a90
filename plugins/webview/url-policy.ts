// Which URLs the browser may load (config `urls`): the scheme of every navigation a caller
// asks for, and the host of every request when a host list is set.

export interface UrlPolicyConfig {
  readonly schemes: readonly string[];
  readonly allowHosts: readonly string[];
  readonly denyHosts: readonly string[];
}

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

/** The one page every browser may show whatever the policy says: it holds nothing. */
const BLANK = 'about:blank';

export class UrlPolicy {
  readonly #schemes: ReadonlySet<string>;
  readonly #allow: readonly string[];
  readonly #deny: readonly string[];

  constructor(config: UrlPolicyConfig) {
    this.#schemes = new Set(config.schemes);
    this.#allow = config.allowHosts.map(normaliseHost);
    this.#deny = config.denyHosts.map(normaliseHost);
  }

  /** Whether the pages' own requests must be checked too (a host list is set). */
  get filtersHosts(): boolean {
    return this.#allow.length > 0 || this.#deny.length > 0;
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

  #checkHost(url: URL): UrlVerdict {
    const host = normaliseHost(url.hostname);
    if (host === '') return { ok: true, url: url.href };
    if (this.#deny.some((rule) => matches(rule, host))) return { ok: false, reason: `the host ${host} is in urls.denyHosts` };
    if (this.#allow.length > 0 && !this.#allow.some((rule) => matches(rule, host))) {
      return { ok: false, reason: `the host ${host} is not in urls.allowHosts` };
    }
    return { ok: true, url: url.href };
  }
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
