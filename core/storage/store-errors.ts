import { GatewayError, isGatewayError } from '../contract/errors.js';

/** What a store error message needs to say where the store is, without any secret. */
export interface StoreErrorContext {
  /** The store for people: `PostgreSQL gateway@db.internal:5432/team` or the SQLite file. */
  readonly where: string;
  /** The configured statement timeout, for the STORE_TIMEOUT message. */
  readonly statementTimeoutMs?: number;
  /** Removes secrets (the URL's password) from a driver's text before it reaches a message. */
  readonly redact: (text: string) => string;
}

// SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '3D000', '28000', '28P01']);
const PG_CONFLICT = new Set(['40001', '40P01', '55P03']);
const PG_TIMEOUT = '57014';
const NET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOENT']);
// pg and pg-pool raise these without a code when a connection ends or never opens.
const PG_LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended|server does not support SSL|driver has already been destroyed/i;

/**
 * The store's own failures as GatewayErrors with stable codes; any other error (a constraint,
 * bad SQL: the plugin's business) is returned unchanged so the plugin can still read its
 * driver code. The driver's text goes into the message only after `redact`. `phase` words
 * the advice for a call, or for the boot's first connection.
 */
export function toStoreError(err: unknown, context: StoreErrorContext, phase: 'call' | 'boot' = 'call'): unknown {
  if (isGatewayError(err) || typeof err !== 'object' || err === null) return err;
  const code = String((err as { code?: unknown }).code ?? '');
  const reason = context.redact((err as Error).message ?? String(err));
  const fail = (storeCode: string, message: string) => new GatewayError(storeCode, message, { cause: err });

  if (code === PG_TIMEOUT) {
    const limit = context.statementTimeoutMs ? ` (storage.shared.postgres.statementTimeoutMs: ${context.statementTimeoutMs} ms)` : '';
    return fail('STORE_TIMEOUT', `A statement on the shared store (${context.where}) was cancelled: ${reason}${limit}. Nothing of it was written; make the query cheaper or raise the timeout.`);
  }
  if (PG_CONFLICT.has(code) || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_LOCKED')) {
    return fail('STORE_CONFLICT', `The shared store (${context.where}) refused the write because another writer holds the rows: ${reason}. The transaction was rolled back; retry it.`);
  }
  if (code === 'SQLITE_FULL') {
    return fail('NO_SPACE', `The disk under the shared store (${context.where}) is full; nothing was changed. Free space and retry.`);
  }
  if (code === '28P01' || code === '28000') {
    return fail('STORE_UNAVAILABLE', `The shared store (${context.where}) refused the login: ${reason}. Check the user and password in storage.shared.postgres.url.`);
  }
  if (code === '3D000') {
    return fail('STORE_UNAVAILABLE', `The shared store (${context.where}) has no such database: ${reason}. Create it (createdb) or fix the database name in storage.shared.postgres.url.`);
  }
  if (PG_UNAVAILABLE.has(code) || NET_ERRORS.has(code) || PG_LOST.test(reason) || isTlsFailure(code)) {
    const advice =
      phase === 'boot'
        ? 'Check that the server runs and accepts connections from this host at the address in storage.shared.postgres.url (and the ssl settings, if any).'
        : 'Whatever the call had begun was rolled back; check that the server runs and accepts connections, then retry.';
    return fail('STORE_UNAVAILABLE', `The shared store (${context.where}) is unavailable: ${reason}. ${advice}`);
  }
  if (/^SQLITE_(IOERR|CANTOPEN|READONLY|CORRUPT|NOTADB)/.test(code)) {
    return fail('STORE_UNAVAILABLE', `The shared store (${context.where}) cannot be used: ${reason}. Check the file and its folder.`);
  }
  return err;
}

function isTlsFailure(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED/.test(code);
}

/** A function that replaces every occurrence of `secret` (and its URL-encoded form) with `***`. */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  const forms = [...new Set([secret, encodeURIComponent(secret)])];
  return (text) => forms.reduce((out, form) => out.split(form).join('***'), text);
}
