/**
 * RFC 6570 URI templates, levels 1 to 3, for resource templates: parsing, and matching a
 * concrete URI back to the template's variables. The SDK has a UriTemplate class, but its
 * `match` takes only the first variable of `{x,y}` and `{/x,y}`, needs every query variable
 * present and in order, leaves values percent-encoded, and builds a new RegExp per call;
 * matching here is compiled once per template.
 */

/** Longest URI the gateway reads or matches; longer ones are refused as INVALID_URI. */
export const MAX_URI_CHARS = 8192;

const UNRESERVED = "A-Za-z0-9\\-._~";
const RESERVED = ":/?#\\[\\]@!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';

// An absolute URI (RFC 3986, section 4.3 plus a fragment): a scheme, then URI characters only.
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.\\-]*:(?:[${UNRESERVED}${RESERVED}]|${PCT})*$`);

/** Whether `uri` is an absolute URI of at most MAX_URI_CHARS, with well-formed %XX escapes. */
export function isValidUri(uri: unknown): uri is string {
  return typeof uri === 'string' && uri.length <= MAX_URI_CHARS && URI.test(uri) && uri.indexOf('#') === uri.lastIndexOf('#');
}

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
const OPERATORS = new Set<string>(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

interface Expression {
  readonly operator: Operator;
  readonly names: readonly string[];
}

/** A parsed template: its variable names, and `match` from a concrete URI to their values. */
export interface UriTemplate {
  readonly template: string;
  readonly variableNames: readonly string[];
  /**
   * The variables of `uri` (percent-decoded; optional ones the URI leaves out are absent),
   * or undefined when it does not match. Throws a URIError when an escape is not UTF-8.
   */
  match(uri: string): Record<string, string> | undefined;
}

/** Parses `template`; throws an Error saying what is wrong with it. */
export function parseUriTemplate(template: string): UriTemplate {
  const parts = splitTemplate(template);
  const names: string[] = [];
  let pattern = '^';
  let previous: Expression | string | undefined;
  for (const part of parts) {
    if (typeof part === 'string') {
      pattern += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else {
      // Two greedy expressions side by side would make matching ambiguous and slow.
      if (typeof previous === 'object' && ['', '+', '#'].includes(previous.operator) && ['', '+'].includes(part.operator)) {
        throw new Error('two expressions follow each other with nothing between them; put a literal character between them');
      }
      for (const name of part.names) {
        if (names.includes(name)) throw new Error(`the variable "${name}" appears twice`);
        names.push(name);
      }
      pattern += expressionPattern(part);
    }
    previous = part;
  }
  const regex = new RegExp(`${pattern}$`);
  // A URI made of the template with every expression expanded must be a URI: this catches
  // spaces and other characters in the literal parts, and a template without a scheme.
  const sample = parts.map((p) => (typeof p === 'string' ? p : 'x')).join('');
  if (!isValidUri(sample)) throw new Error('it is not an absolute URI once expanded (a scheme such as "notes:" first, then only URI characters)');
  return {
    template,
    variableNames: names,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      names.forEach((name, i) => {
        const raw = found[i + 1];
        if (raw !== undefined) values[name] = decodeURIComponent(raw);
      });
      return values;
    },
  };
}

function splitTemplate(template: string): Array<string | Expression> {
  const parts: Array<string | Expression> = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) throw new Error(`a "}" at ${close} closes no expression`);
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    if (close === -1) throw new Error(`the expression at ${open} is not closed`);
    parts.push(parseExpression(template.slice(open + 1, close)));
    at = close + 1;
  }
  return parts;
}

function parseExpression(body: string): Expression {
  const operator = (OPERATORS.has(body[0] ?? '') ? body[0] : '') as Operator;
  const list = body.slice(operator.length);
  if (list === '') throw new Error(`the expression "{${body}}" names no variable`);
  const names = list.split(',');
  for (const name of names) {
    if (/[*:]/.test(name)) throw new Error(`"{${body}}" uses a level 4 modifier ("*" or ":n"); levels 1 to 3 are supported`);
    if (!VARNAME.test(name)) throw new Error(`"${name}" in "{${body}}" is not a variable name (letters, digits, _ and %XX, dots between)`);
  }
  return { operator, names };
}

/** The regex of one expression, one capture group per variable, in the order of `names`. */
function expressionPattern({ operator, names }: Expression): string {
  const plain = `((?:[${UNRESERVED}]|${PCT})+)`;
  const reserved = `((?:[${UNRESERVED}${RESERVED}]|${PCT})+)`;
  const noDot = `((?:[A-Za-z0-9\\-_~]|${PCT})+)`;
  const maybeEmpty = `((?:[${UNRESERVED}]|${PCT})*)`;
  const key = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The first variable of a simple or reserved expansion is required, so "notes/{id}" does not
  // match "notes/"; the others may be left out, as RFC 6570 leaves out undefined variables.
  const listOf = (value: string) => value + names.slice(1).map(() => `(?:,${value})?`).join('');
  switch (operator) {
    case '':
      return listOf(plain);
    case '+':
      return listOf(reserved);
    case '#':
      return `(?:#${listOf(reserved)})?`;
    case '.':
      return names.map(() => `(?:\\.${noDot})?`).join('');
    case '/':
      return names.map(() => `(?:/${plain})?`).join('');
    case ';':
      return names.map((n) => `(?:;${key(n)}(?:=${maybeEmpty})?)?`).join('');
    case '?':
      return names.map((n) => `(?:[?&]${key(n)}=${maybeEmpty})?`).join('');
    case '&':
      return names.map((n) => `(?:&${key(n)}=${maybeEmpty})?`).join('');
  }
}
