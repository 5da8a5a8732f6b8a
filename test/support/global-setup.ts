import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/platform/db/embedded/server.ts';
import { livePostmaster, ownerAlive, stopPostmaster } from '../../src/platform/db/embedded/process.ts';

// One PostgreSQL server for the whole run: the same embedded server `npm start` uses, in a temporary directory
// of its own, unless TEST_DATABASE_URL names a server to use instead. Test files share its `tasman` database
// (each test makes fresh accounts); files that run workers create a scratch database each (scratch-db.ts).

const PREFIX = 'tasman-test-pg-';
let server: EmbeddedServer | null = null;
let dir: string | null = null;

/**
 * Servers left by a run that was killed outright: stop them and remove their directories. Other runs on the same
 * machine are left alone: a directory is swept only when the process that made it (runner.pid, written first) is
 * gone, or, with no runner.pid yet, when it is over an hour old.
 */
async function sweepLeftovers(): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
    const old = path.join(tmpdir(), name);
    try {
      const runner = path.join(old, 'runner.pid');
      if (existsSync(runner) ? ownerAlive(runner) : Date.now() - statSync(old).mtimeMs < 3_600_000) continue;
      if (ownerAlive(path.join(old, 'postgres.owner'))) continue;
      if (livePostmaster(path.join(old, 'postgres')) !== null) await stopPostmaster(path.join(old, 'postgres'));
      rmSync(old, { recursive: true, force: true });
    } catch {
      // Another run is sweeping it too, or it is not ours to remove: never fail this run over it.
    }
  }
}

/**
 * dist/ brought up to date once, before any test runs `bin/tasman.js`: otherwise the first child process after a
 * source change (a `git pull`, an edit) compiles it and says so on its stderr, which the tests that read a
 * refusal's single stderr line then count as a second line.
 */
function buildServer(): void {
  const script = fileURLToPath(new URL('../../bin/build-if-stale.mjs', import.meta.url));
  const run = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bin/build-if-stale.mjs exited with ${run.status ?? run.signal}`);
}

export async function setup(): Promise<void> {
  buildServer();
  if (process.env.TEST_DATABASE_URL) return;
  await sweepLeftovers();
  dir = mkdtempSync(path.join(tmpdir(), PREFIX));
  writeFileSync(path.join(dir, 'runner.pid'), String(process.pid));
  server = await startEmbeddedPostgres({ dataDir: dir });
  // Test workers are forked after this and inherit the environment.
  process.env.TEST_DATABASE_URL = server.url;
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
