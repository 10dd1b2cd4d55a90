import { readFileSync } from 'node:fs';
import type { CustomTypesConfig, PoolConfig } from 'pg';
import { GatewayError } from '../contract/errors.js';

/** `storage.shared.postgres` after validation, defaults applied and `ssl.ca` made absolute. */
export interface PostgresStoreConfig {
  /** `postgres://user:password@host:port/database`; usually `${DATABASE_URL}`. */
  readonly url: string;
  readonly poolSize: number;
  /** Server-side limit per statement; 0 turns it off. */
  readonly statementTimeoutMs: number;
  /** How long opening a connection may take before the call (or the boot) gives up. */
  readonly connectTimeoutMs: number;
  readonly ssl?: { readonly rejectUnauthorized: boolean; readonly ca?: string };
}

/** The parts of a PostgreSQL URL the gateway uses. */
export interface PostgresUrl {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password?: string;
  readonly sslmode?: string;
  readonly applicationName?: string;
}

const QUERY_KEYS = ['sslmode', 'host', 'application_name'];
const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'];
const URL_SHAPE = 'postgres://user:password@host:5432/database (a unix socket: postgres://user@localhost/database?host=/run/postgresql)';

/**
 * Parses the URL, or throws CONFIG_INVALID saying what is wrong with it. The URL itself is
 * never quoted back, nor kept as a cause: it may hold the password.
 */
export function parsePostgresUrl(url: string, where: string): PostgresUrl {
  const refuse = (problem: string) =>
    new GatewayError('CONFIG_INVALID', `${where}: storage.shared.postgres.url ${problem}; write it as ${URL_SHAPE}.`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('is not a URL');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw refuse(`has the scheme "${parsed.protocol.slice(0, 20)}", not postgres: or postgresql:`);
  }
  for (const key of parsed.searchParams.keys()) {
    if (!QUERY_KEYS.includes(key)) throw refuse(`has the parameter "${key.slice(0, 40)}", which the gateway does not read (it reads ${QUERY_KEYS.join(', ')})`);
  }
  const sslmode = parsed.searchParams.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !SSL_MODES.includes(sslmode)) throw refuse(`has sslmode "${sslmode.slice(0, 20)}" (one of ${SSL_MODES.join(', ')})`);
  const host = parsed.searchParams.get('host') ?? decode(parsed.hostname.replace(/^\[|\]$/g, ''));
  if (!host) throw refuse('names no host');
  const database = decode(parsed.pathname.slice(1));
  if (!database || database.includes('/')) throw refuse('names no database (the path after the host)');
  const user = decode(parsed.username);
  if (!user) throw refuse('names no user');
  const port = parsed.port ? Number(parsed.port) : 5432;
  return {
    host,
    port,
    database,
    user,
    ...(parsed.password ? { password: decode(parsed.password) } : {}),
    ...(sslmode ? { sslmode } : {}),
    ...(parsed.searchParams.has('application_name') ? { applicationName: parsed.searchParams.get('application_name')! } : {}),
  };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The store's address for messages and logs: everything but the password. */
export function describePostgres(url: PostgresUrl): string {
  const host = url.host.startsWith('/') ? url.host : `${url.host}:${url.port}`;
  return `PostgreSQL ${url.user}@${host}/${url.database}`;
}

// int8 (COUNT(*), bigint columns) arrives from pg as a string but from SQLite as a number:
// as numbers on both, so one plugin's code reads the same values from either back end.
const INT8_OID = 20;
function storeTypes(defaults: CustomTypesConfig): CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : defaults.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
  };
}

/**
 * node-postgres pool options for the config; reads the CA file (CONFIG_INVALID if it cannot).
 * `pgTypes` is pg's own parser registry (pg is imported only when PostgreSQL is configured).
 */
export function postgresPoolConfig(config: PostgresStoreConfig, url: PostgresUrl, where: string, pgTypes: CustomTypesConfig): PoolConfig {
  return {
    host: url.host,
    port: url.port,
    database: url.database,
    user: url.user,
    ...(url.password !== undefined ? { password: url.password } : {}),
    max: config.poolSize,
    connectionTimeoutMillis: config.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    ...(config.statementTimeoutMs > 0 ? { statement_timeout: config.statementTimeoutMs } : {}),
    application_name: url.applicationName ?? 'mcp-gateway',
    keepAlive: true,
    ssl: sslOptions(config, url, where),
    types: storeTypes(pgTypes),
  };
}

function sslOptions(config: PostgresStoreConfig, url: PostgresUrl, where: string): PoolConfig['ssl'] {
  if (config.ssl) {
    let ca: string | undefined;
    if (config.ssl.ca) {
      try {
        ca = readFileSync(config.ssl.ca, 'utf8');
      } catch (err) {
        throw new GatewayError('CONFIG_INVALID', `${where}: storage.shared.postgres.ssl.ca: cannot read ${config.ssl.ca} (${(err as NodeJS.ErrnoException).code ?? 'error'}); point it at the server's CA certificate (PEM).`);
      }
    }
    return { rejectUnauthorized: config.ssl.rejectUnauthorized, ...(ca ? { ca } : {}) };
  }
  switch (url.sslmode) {
    case undefined:
    case 'disable':
    case 'prefer':
      return false;
    case 'no-verify':
      return { rejectUnauthorized: false };
    default:
      return { rejectUnauthorized: true };
  }
}
