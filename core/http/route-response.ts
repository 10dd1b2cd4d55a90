/**
 * `httpResponse(...)`: what a plugin route returns for anything but the JSON envelope (an
 * HTML fragment, a CSV file, a 201 or a redirect). Marked with a registered symbol rather
 * than a class, so that a plugin that loads another copy of core is still understood.
 */
const MARK = Symbol.for('mcp-gateway.httpResponse');

/** A route's reply other than the JSON envelope. Make it with `httpResponse`. */
export interface HttpResponse {
  readonly [MARK]: true;
  readonly status: number;
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

export interface HttpResponseOptions {
  /** 200 by default; 200-399 only (failures are thrown with `ctx.error`, so they carry a code). */
  readonly status?: number;
  /** The media type; `text/plain; charset=utf-8` for a string, `application/octet-stream` for bytes. */
  readonly type?: string;
  /** More headers. Content-Type and Content-Length are set from `type` and the body. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A reply with this body, status and media type, sent as it is (no envelope). Checked when
 * the route answers: a status outside 200-399 or a header it may not set is the plugin's bug
 * and answers INTERNAL_ERROR.
 */
export function httpResponse(body: string | Uint8Array, options: HttpResponseOptions = {}): HttpResponse {
  return {
    [MARK]: true,
    status: options.status ?? 200,
    type: options.type ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream'),
    headers: options.headers ?? {},
    body,
  };
}

export function isHttpResponse(value: unknown): value is HttpResponse {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
}

/** Headers a plugin may not set: framing, and the gateway's own cookie and key handling. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'set-cookie']);

/** An HTTP token (RFC 9110): node throws on anything else, after other headers were set. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a plugin's HttpResponse cannot be sent, if it cannot. */
export function responseProblem(response: HttpResponse): string | undefined {
  const { status, type, headers, body } = response;
  if (!Number.isInteger(status) || status < 200 || status > 399) return `status ${String(status)} (200-399 only; throw ctx.error(...) for failures)`;
  if (typeof type !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(type)) return `media type ${JSON.stringify(type)}`;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return 'a body that is neither a string nor bytes';
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(name)) return `the header name ${JSON.stringify(name)}`;
    if (RESERVED_HEADERS.has(name.toLowerCase())) return `the header ${name}, which the gateway sets`;
    if (typeof value !== 'string' || /[\r\n]/.test(value)) return `a bad value for the header ${name}`;
  }
  return undefined;
}
