// Compiles the server (src/, TypeScript) to dist/ (JavaScript ES modules with source maps) when dist/ is missing or
// older than its sources, so `tasman` runs plain node: no compiler loaded at run time
// (docs/decisions/0036-compiled-javascript-at-run-time.md). Run by `npm install` (prepare) and by bin/tasman.js
// before it starts, which is how a `git pull` or an edit is picked up. Several processes starting at once build it
// once (a lock directory).
// TypeScript type-checks nothing here (`noCheck`): `npm run typecheck` does that; this only strips types.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(root, 'dist');
const STAMP = path.join(DIST, '.built');
const LOCK = `${DIST}.lock`;
const LOCK_STALE_MS = 5 * 60_000;

/** The newest modification time among the sources the build reads (test files are not compiled). */
function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return p.endsWith('.test.ts') ? 0 : s.mtimeMs;
  let max = 0;
  for (const f of readdirSync(p)) max = Math.max(max, newest(path.join(p, f)));
  return max;
}

function sourcesTime() {
  return Math.max(newest(path.join(root, 'src')), ...['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(path.join(root, f)).mtimeMs));
}

/** The stamp holds the sources' newest time as the build read them: a file saved during a build is newer. */
export function isStale() {
  // A packaged build (the container image) ships dist/ without src/: what it carries is what runs.
  if (!existsSync(path.join(root, 'src'))) return !existsSync(STAMP);
  let built;
  try { built = Number(readFileSync(STAMP, 'utf8')); } catch { return true; }
  return !(built >= sourcesTime());
}

function tscPath() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

function takeLock() {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (err) {
      // A read-only checkout (the systemd unit's ProtectSystem=strict) cannot rebuild: whoever updated it must.
      if (err.code === 'EACCES' || err.code === 'EROFS' || err.code === 'EPERM') {
        throw new Error(`src/ changed since dist/ was built, and dist/ cannot be rebuilt here (${err.code}): run \`npm run build\` in ${root} as its owner`);
      }
      if (err.code !== 'EEXIST') throw err;
      // A build killed halfway leaves its lock behind.
      try { if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true }); } catch { /* gone */ }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

/**
 * Builds dist/ when stale (or always with force). Returns 'fresh', 'built', or 'no-compiler' (TypeScript is not
 * installed, and dist/ is missing or stale). Compiler output goes to stderr: stdout is the program's.
 */
export function buildIfStale({ force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (!force && !isStale()) return 'fresh';
  const tsc = tscPath();
  if (!tsc) return 'no-compiler';
  takeLock();
  try {
    if (!force && !isStale()) return 'fresh'; // another process built it while we waited
    log(existsSync(STAMP) ? 'tasman: src/ changed since dist/ was built: compiling it again' : 'tasman: compiling src/ to dist/');
    // Built beside dist/ and swapped in, so a process already running from dist/ never sees half a build.
    const sources = sourcesTime();
    const next = `${DIST}.next-${process.pid}`;
    rmSync(next, { recursive: true, force: true });
    const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: ['ignore', 2, 2] });
    if (run.status !== 0) {
      rmSync(next, { recursive: true, force: true });
      throw new Error(`compiling src/ failed (tsc exited with ${run.status ?? run.signal})`);
    }
    // The migrations are read from beside the compiled database client at run time.
    cpSync(path.join(root, 'src/platform/db/migrations'), path.join(next, 'platform/db/migrations'), { recursive: true });
    writeFileSync(path.join(next, '.built'), String(sources));
    const old = `${DIST}.old-${process.pid}`;
    if (existsSync(DIST)) renameSync(DIST, old);
    renameSync(next, DIST);
    rmSync(old, { recursive: true, force: true });
    return 'built';
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = buildIfStale({ force: process.argv.includes('--force') });
  // A production install without dev dependencies still has TypeScript (a dependency), so this is unusual.
  if (result === 'no-compiler') console.warn('tasman: TypeScript is not installed, so dist/ was not built');
}
