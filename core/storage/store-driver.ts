import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type TransactionSettings,
} from '../vendor/kysely.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { StoreDialect } from '../contract/store-types.js';

/** What the store adds to a Kysely dialect: its error mapping, and SQLite's write lock. */
export interface StoreDriverOptions {
  readonly dialect: StoreDialect;
  /** Maps a driver error to the store's codes (see toStoreError); returns it unchanged otherwise. */
  readonly mapError: (err: unknown) => unknown;
}

/**
 * A Kysely dialect whose driver maps every failure of the store to a stable code, whatever
 * query builder call or transaction step raised it; plugins get Kysely itself, so this is the
 * one place that sees them all.
 */
export class StoreDialectAdapter implements Dialect {
  readonly #inner: Dialect;
  readonly #options: StoreDriverOptions;

  constructor(inner: Dialect, options: StoreDriverOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  createDriver(): Driver {
    return new StoreDriver(this.#inner.createDriver(), this.#options);
  }
  createQueryCompiler(): QueryCompiler {
    return this.#inner.createQueryCompiler();
  }
  createAdapter() {
    return this.#inner.createAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return this.#inner.createIntrospector(db);
  }
}

/** How long a SQLite statement waits, in all, for another process to release the write lock. */
const SQLITE_BUSY_BUDGET_MS = 5000;

/**
 * Runs `run` again while SQLite answers SQLITE_BUSY (another process holds the write lock),
 * sleeping between tries. The shared SQLite file has busy_timeout 0 because SQLite's own wait
 * sleeps inside the call, blocking the event loop, and with it the very transaction of this
 * process that holds the lock: two gateways in one process would wait on each other.
 */
async function whileBusy<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_BUDGET_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() + wait > deadline) throw err;
      await delay(wait);
    }
  }
}

class StoreDriver implements Driver {
  readonly #inner: Driver;
  readonly #options: StoreDriverOptions;
  /** SQLite connections inside BEGIN IMMEDIATE: they hold the write lock, so never see BUSY. */
  readonly #holdingLock = new WeakSet<DatabaseConnection>();
  // The inner driver recognises its own connection objects (pg's release goes through a
  // private symbol on them), so the wrapped one given to Kysely maps back to it.
  readonly #innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #wrapperOf = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, options: StoreDriverOptions) {
    this.#inner = inner;
    this.#options = options;
  }

  async #mapped<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.#options.mapError(err);
    }
  }

  #unwrap(connection: DatabaseConnection): DatabaseConnection {
    return this.#innerOf.get(connection) ?? connection;
  }

  init(options?: Parameters<Driver['init']>[0]): Promise<void> {
    return this.#mapped(() => this.#inner.init(options));
  }

  async acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    const inner = await this.#mapped(() => this.#inner.acquireConnection(options));
    let wrapper = this.#wrapperOf.get(inner);
    if (!wrapper) {
      wrapper = this.#wrap(inner);
      this.#wrapperOf.set(inner, wrapper);
      this.#innerOf.set(wrapper, inner);
    }
    return wrapper;
  }

  #wrap(inner: DatabaseConnection): DatabaseConnection {
    const mapError = this.#options.mapError;
    const sqlite = this.#options.dialect === 'sqlite';
    const wrapper: DatabaseConnection = {
      executeQuery: (query, options) =>
        this.#mapped(() =>
          // Outside a transaction a statement commits on its own, and a busy one did nothing:
          // trying it again is safe.
          sqlite && !this.#holdingLock.has(inner) ? whileBusy(() => inner.executeQuery(query, options)) : inner.executeQuery(query, options),
        ),
      async *streamQuery(query, chunkSize, options) {
        try {
          yield* inner.streamQuery(query, chunkSize, options);
        } catch (err) {
          throw mapError(err);
        }
      },
    };
    // Kysely's abort support (cancel a query, end a session) looks for these on the connection.
    if (inner.cancelQuery) wrapper.cancelQuery = (provider) => inner.cancelQuery!(provider);
    if (inner.killSession) wrapper.killSession = (provider) => inner.killSession!(provider);
    if (inner.collectSessionInfo) wrapper.collectSessionInfo = () => inner.collectSessionInfo!();
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (this.#options.dialect === 'sqlite') {
      // A deferred BEGIN takes the write lock at the first write, and a transaction that read
      // first then fails with SQLITE_BUSY if another process wrote meanwhile, whatever the busy
      // timeout. IMMEDIATE takes it at the start: read-modify-write is safe across processes.
      const inner = this.#unwrap(connection);
      return this.#mapped(async () => {
        await whileBusy(() => inner.executeQuery(CompiledQuery.raw('begin immediate')));
        this.#holdingLock.add(inner);
      });
    }
    return this.#mapped(() => this.#inner.beginTransaction(this.#unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    const inner = this.#unwrap(connection);
    return this.#mapped(() => this.#inner.commitTransaction(inner)).finally(() => this.#holdingLock.delete(inner));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const inner = this.#unwrap(connection);
    return this.#mapped(() => this.#inner.rollbackTransaction(inner)).finally(() => this.#holdingLock.delete(inner));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#mapped(() => this.#inner.savepoint!(this.#unwrap(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#mapped(() => this.#inner.rollbackToSavepoint!(this.#unwrap(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#mapped(() => this.#inner.releaseSavepoint!(this.#unwrap(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection, options?: Parameters<Driver['releaseConnection']>[1]): Promise<void> {
    return this.#inner.releaseConnection(this.#unwrap(connection), options);
  }

  destroy(options?: Parameters<Driver['destroy']>[0]): Promise<void> {
    return this.#inner.destroy(options);
  }
}
