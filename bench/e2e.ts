// One end-to-end round against a system that accepts messages over HTTP and calls back on delivery, shared by
// bench/kannel.ts (Tasman against Kannel) and bench/ab.ts's pipeline mode (this build against another):
//  - accept rate: N requests (`connections` at a time), first request → last answer; p50/p99 of the answers;
//  - end-to-end rate: first request → the last delivery callback of the round (to the receiver below);
//  - CPU per message: user + system time over the round of the system's process trees plus its PostgreSQL
//    backends (the whole path: API, workers and the database's work);
//  - memory at rest: resident set of the system's process trees, read before the round;
//  - where the CPU went: per message, by process (a cluster child's TASMAN_ROLES, else its command name), the
//    PostgreSQL backends as `postgres`, and the harness that is not the system's (`others`: the SMSC simulator,
//    this bench's load and receiver, given as `harnessPids`, without their descendants).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { Pool } from 'undici';
import { cpuByPid, treeCpuByPid, treeCpuMs, treeRssMb } from './proc-stats.ts';
import { pct, round2 } from './stats.ts';
import { call, type BenchProcess } from './tasman-process.ts';

const now = () => performance.now();

export interface System {
  name: string;
  roots: () => number[];
  /** extra CPU counted for the system over a round (PostgreSQL backends) */
  backends: () => Promise<number[]>;
  /** One request; resolves once it is answered, with the id its delivery callback will carry. */
  send(key: number, tag: string): Promise<string>;
  /** Run before each of its rounds, ahead of any priming round: the VACUUM autovacuum would have done, say. */
  beforeRound?: () => Promise<unknown>;
}

/** The PostgreSQL backends of `db`'s database but `db`'s own: a system's database work (System.backends). */
export const backendsOf = (db: pg.Client) => async (): Promise<number[]> =>
  (await db.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);

/**
 * The delivery callbacks of every system: Tasman's webhook body (`message.id`) on any path, or `?i=<tag>` on
 * `/k` (Kannel's dlr-url). A callback may overtake the answer to its own request, so ids seen before their
 * answer wait in `early`.
 */
export async function startCallbackReceiver() {
  let expected = new Set<string>();
  let early = new Set<string>();
  const state = { delivered: 0, lastCallback: 0 };
  const callback = (id: string) => {
    if (expected.delete(id)) { state.delivered += 1; state.lastCallback = now(); } else early.add(id);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/k?')) callback(new URL(req.url, 'http://x').searchParams.get('i') ?? '');
      else {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: { id: string } };
          if (body.message?.id) callback(body.message.id);
        } catch { /* not ours */ }
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    reset() { expected = new Set(); early = new Set(); state.delivered = 0; },
    accepted(id: string) {
      if (early.delete(id)) { state.delivered += 1; state.lastCallback = now(); } else expected.add(id);
    },
    close() { server.closeAllConnections(); server.close(); },
  };
}

export type CallbackReceiver = Awaited<ReturnType<typeof startCallbackReceiver>>;

/** CPU milliseconds by label across trees and loose pids, differenced against an earlier reading. */
function cpuParts(trees: number[], loose: number[], before?: Map<number, { label: string; ms: number }>) {
  const now = treeCpuByPid(trees);
  for (const [pid, ms] of cpuByPid(loose)) now.set(pid, { label: 'postgres', ms });
  if (!before) return now;
  const parts: Record<string, number> = {};
  for (const [pid, { label, ms }] of now) parts[label] = (parts[label] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
  return parts;
}

export async function runRound(receiver: CallbackReceiver, system: System, opts: { keys: number; messages: number; connections: number; tag: string; harnessPids?: number[] }) {
  await new Promise((r) => setTimeout(r, 1000));
  const rssMb = treeRssMb(system.roots());
  receiver.reset();
  const pgBefore = cpuByPid(await system.backends());
  const cpuBefore = treeCpuMs(system.roots());
  const partsBefore = cpuParts(system.roots(), [...pgBefore.keys()]) as Map<number, { label: string; ms: number }>;
  const harnessMs = () => [...cpuByPid(opts.harnessPids ?? []).values()].reduce((a, b) => a + b, 0);
  const harnessBefore = harnessMs();
  const latencies: number[] = [];
  let next = 0;
  const t0 = now();
  await Promise.all(Array.from({ length: opts.connections }, async () => {
    while (next < opts.messages) {
      const i = next++;
      const t = now();
      receiver.accepted(await system.send(i % opts.keys, `${opts.tag}-${i}`));
      latencies.push(now() - t);
    }
  }));
  const acceptedAt = now();
  const until = Date.now() + 120_000 + opts.messages * 10;
  while (receiver.state.delivered < opts.messages) {
    if (Date.now() > until) throw new Error(`${system.name}: ${receiver.state.delivered} of ${opts.messages} delivered`);
    await new Promise((r) => setTimeout(r, 20));
  }
  let pgCpu = 0;
  for (const [pid, ms] of cpuByPid(await system.backends())) pgCpu += ms - (pgBefore.get(pid) ?? 0);
  const cpuMs = treeCpuMs(system.roots()) - cpuBefore + pgCpu;
  const parts = cpuParts(system.roots(), await system.backends(), partsBefore) as Record<string, number>;
  parts.others = harnessMs() - harnessBefore;
  return {
    accept_per_s: Math.round(opts.messages / ((acceptedAt - t0) / 1000)),
    e2e_per_s: Math.round(opts.messages / ((receiver.state.lastCallback - t0) / 1000)),
    p99_ms: round2(pct(latencies, 0.99)), p50_ms: round2(pct(latencies, 0.5)),
    cpu_ms_per_msg: round2(cpuMs / opts.messages), rss_mb: rssMb,
    cpu_ms_per_msg_by: Object.fromEntries(Object.entries(parts).map(([k, ms]) => [k, Math.round((1000 * ms) / opts.messages) / 1000])),
  };
}

export type RoundResult = Awaited<ReturnType<typeof runRound>>;

/**
 * A measured round right after an unreported one of `prime` messages (default 1,000) on the same system: in
 * alternating rounds a system that had just run did 5–30% better than one that followed the other (an A/A run of
 * bench/ab.ts; decision 0052), so each round starts as the system's own second.
 */
export async function primedRound(receiver: CallbackReceiver, system: System, opts: Parameters<typeof runRound>[2] & { prime?: number }) {
  const { prime = 1000, ...round } = opts;
  if (prime > 0) await runRound(receiver, system, { ...round, messages: Math.min(prime, round.messages), tag: `p-${round.tag}`, harnessPids: [] });
  return runRound(receiver, system, round);
}

/**
 * A running Tasman as a System: `keyCount` accounts, each with its delivery webhook on the receiver, sending
 * `text` by POST /send through a pool of `connections`. `db` is a client on Tasman's database (its backends are
 * counted). Returns the system and a close function for its pool.
 */
export async function tasmanSystem(opts: {
  name: string; proc: BenchProcess; db: pg.Client; receiver: CallbackReceiver; keyCount: number; connections: number;
  recipient: () => string; text: string;
}) {
  const keys: string[] = [];
  for (let i = 0; i < opts.keyCount; i += 1) {
    const created = await call('POST', `${opts.proc.url}/admin/accounts`, 'bench-admin', { business_name: `Bench ${i}`, email: `bench${i}@example.com`, credits: 100_000_000 });
    if (created.status !== 201) throw new Error(`account: ${JSON.stringify(created.json)}`);
    const key = created.json.api_key as string;
    const hook = await call('PUT', `${opts.proc.url}/webhooks/delivery`, key, { url: `${opts.receiver.url}/t`, enabled: true });
    if (hook.status !== 200) throw new Error(`webhook: ${JSON.stringify(hook.json)}`);
    keys.push(key);
  }
  const pool = new Pool(opts.proc.url, { connections: opts.connections });
  const system: System = {
    name: opts.name, roots: () => [opts.proc.child.pid!],
    backends: backendsOf(opts.db),
    async send(key) {
      const res = await pool.request({
        method: 'POST', path: '/send', body: JSON.stringify({ to: opts.recipient(), message: opts.text }),
        headers: { authorization: `Bearer ${keys[key]}`, 'content-type': 'application/json' },
      });
      const body = await res.body.json() as { message_id?: string };
      if (res.statusCode !== 200 || !body.message_id) throw new Error(`${opts.name} /send ${res.statusCode}: ${JSON.stringify(body)}`);
      return body.message_id;
    },
  };
  return { system, close: () => pool.close() };
}
