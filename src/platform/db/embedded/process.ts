import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Where the server's socket goes: DATA_DIR/run, unless that path is too long for a Unix socket address (about 107
 * bytes with the file name PostgreSQL adds), then a directory in the system's temporary directory named after
 * DATA_DIR, so every DATA_DIR still has its own.
 */
export function socketDirFor(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'run');
  if (Buffer.byteLength(inDataDir) <= 85) return inDataDir;
  return path.join(tmpdir(), `tasman-pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
}

function alive(pid: number, command: RegExp): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A pid can be reused after a reboot: make sure it is still the program we think.
  try {
    return command.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): trust the pid
  }
}

/** The pid of the postmaster running this cluster, from its postmaster.pid, or null when none runs. */
export function livePostmaster(cluster: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && alive(pid, /postgres/) ? pid : null;
}

/** Whether the Tasman process recorded as the server's owner is still running (and is not this one). */
export function ownerAlive(ownerFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(ownerFile, 'utf8').trim());
  } catch {
    return false;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid, /node|tasman/);
}

/** Stops the cluster's server: a fast shutdown (sessions end, nothing lost), then harder if it hangs. */
export async function stopPostmaster(cluster: string): Promise<void> {
  for (const [signal, waitMs] of [['SIGINT', 30_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    const pid = livePostmaster(cluster);
    if (pid === null) return;
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitUntil(waitMs, async () => livePostmaster(cluster) === null)) return;
  }
}

/** Polls `check` with a growing pause until it answers true (returns true) or the time is up (returns false). */
export async function waitUntil(timeoutMs: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let pause = 20;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    pause = Math.min(pause * 2, 250);
  }
}
