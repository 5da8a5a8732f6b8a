// CPU time and resident memory of a process and its descendants, read from /proc (Linux), for benchmarks that
// compare whole systems (bench/kannel.ts). CPU is user + system time in milliseconds.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux
const PAGE_KB = 4;

interface Stat { pid: number; ppid: number; cpuMs: number; rssKb: number }

/** The fields of a /proc stat file (a process's, or a thread's under /proc/<pid>/task) after its command name. */
function statFields(path: string): string[] | null {
  try {
    const text = readFileSync(path, 'utf8');
    // the command name is in parentheses and may hold spaces: fields start after the last ')'
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone
  }
}

const cpuMsOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) * TICK_MS;

function stat(pid: number): Stat | null {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields && { pid, ppid: Number(fields[1]), cpuMs: cpuMsOf(fields), rssKb: Number(fields[21]) * PAGE_KB };
}

/** CPU milliseconds of each thread of a process, by thread id (empty once it is gone). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[] = [];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { /* gone */ }
  for (const tid of tids) {
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    if (fields) out.set(Number(tid), cpuMsOf(fields));
  }
  return out;
}

function all(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) out.push(s);
  }
  return out;
}

/** The given pids and every descendant of theirs. */
export function tree(roots: number[]): Stat[] {
  const stats = all();
  const keep = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of stats) if (!keep.has(s.pid) && keep.has(s.ppid)) { keep.add(s.pid); grew = true; }
  }
  return stats.filter((s) => keep.has(s.pid));
}

/** CPU milliseconds per pid (for a difference over a round, where processes may come and go). */
export function cpuByPid(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, stat(pid)?.cpuMs ?? 0]));
}

/** What a process is, for a CPU breakdown: its TASMAN_ROLES (a cluster child) or its command name. */
export function label(pid: number): string {
  try {
    const role = /(?:^|\0)TASMAN_ROLES=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'latin1'))?.[1];
    if (role) return role;
  } catch { /* not ours to read */ }
  try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return 'gone'; }
}

/** CPU milliseconds per pid of the given trees, with each pid's label. */
export function treeCpuByPid(roots: number[]): Map<number, { label: string; ms: number }> {
  return new Map(tree(roots).map((s) => [s.pid, { label: label(s.pid), ms: s.cpuMs }]));
}

export const treeCpuMs = (roots: number[]): number => tree(roots).reduce((sum, s) => sum + s.cpuMs, 0);
export const treeRssMb = (roots: number[]): number => Math.round(tree(roots).reduce((sum, s) => sum + s.rssKb, 0) / 1024);
