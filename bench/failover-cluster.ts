// A pg_auto_failover formation on loopback for bench/failover.ts: a monitor and two PostgreSQL 15 nodes (a primary
// and a synchronous standby), from Debian's postgresql-15-auto-failover. pg_autoctl refuses to run as root, so
// every command runs as the `postgres` account (runuser) in a directory of its own, with its XDG configuration and
// state kept there too; every server listens on 127.0.0.1 only, with trust authentication on loopback.
//
// The monitor's timeouts are shortened from their defaults so that a dead primary is replaced in seconds, not in
// half a minute (docs/operations.md, "Database failover", has the same values for production):
//   pgautofailover.health_check_period          1000 ms (default 5000)   how often the monitor checks each node
//   pgautofailover.health_check_timeout         1000 ms (default 5000)   connect timeout of one check
//   pgautofailover.health_check_max_retries     1       (default 2)
//   pgautofailover.health_check_retry_delay     500 ms  (default 2000)
//   pgautofailover.node_considered_unhealthy_timeout 3000 ms (default 20000)  silence before a node is unhealthy
//   pgautofailover.primary_demote_timeout       8000 ms (default 30000)  how long the monitor waits for an
//                                                unreachable primary to demote itself before promoting
// and each node's keeper: timeout.network_partition_timeout 5 s (default 20): a primary that can reach neither
// the monitor nor its standby for that long stops accepting writes. It stays below primary_demote_timeout, so a
// primary cut off by a partition has demoted itself before its standby is promoted (no two primaries).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export const MONITOR_SETTINGS: Record<string, number> = {
  'pgautofailover.health_check_period': 1_000,
  'pgautofailover.health_check_timeout': 1_000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 3_000,
  'pgautofailover.primary_demote_timeout': 8_000,
};
export const NETWORK_PARTITION_TIMEOUT_S = 5;

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export interface Formation {
  dir: string;
  ports: number[];
  /** The nodes as the monitor sees them. */
  state(): Promise<NodeState[]>;
  /** The whole node dies at once: its pg_autoctl keeper and PostgreSQL, SIGKILL (a lost machine). */
  kill(name: string): void;
  /** Starts a killed node's keeper again: pg_auto_failover brings it back as a standby of the new primary. */
  restart(name: string): void;
  stop(): Promise<void>;
}

export async function startFormation(basePort: number): Promise<Formation> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tasman-pgaf-'));
  const { uid, gid } = postgresAccount();
  chownSync(dir, uid, gid);
  const env = ['env', `XDG_CONFIG_HOME=${dir}/xdg-config`, `XDG_DATA_HOME=${dir}/xdg-data`, `PATH=${PG_BIN}:/usr/bin:/bin`];
  const asPostgres = (args: string[]) => ['-u', 'postgres', '--', ...env, 'pg_autoctl', ...args];
  const runs = new Map<string, ChildProcess>();
  const run = (name: string, args: string[]) => {
    const log = openSync(path.join(dir, `${name}.log`), 'a');
    // Its own process group, so kill() takes the keeper and the PostgreSQL it started together.
    const child = spawn('runuser', asPostgres(args), { cwd: dir, detached: true, stdio: ['ignore', log, log] });
    runs.set(name, child);
  };
  const once = (name: string, args: string[]) => {
    const r = spawnSync('runuser', asPostgres(args), { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} (${name}) failed:\n${r.stdout}\n${r.stderr}`);
  };
  const common = ['--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', `${PG_BIN}/pg_ctl`];

  const monitorPort = basePort;
  once('monitor', ['create', 'monitor', '--pgdata', `${dir}/monitor`, '--pgport', String(monitorPort), ...common]);
  run('monitor', ['run', '--pgdata', `${dir}/monitor`]);
  const monitorUrl = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`;
  await until(async () => { await query(monitorUrl, 'select 1'); return true; }, 'the monitor to accept connections', 60_000);
  for (const [name, value] of Object.entries(MONITOR_SETTINGS)) await query(monitorUrl, `alter system set ${name} = ${value}`);
  await query(monitorUrl, 'select pg_reload_conf()');

  const ports = [basePort + 1, basePort + 2];
  const formation: Formation = {
    dir,
    ports,
    async state() {
      const rows = await query<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
        monitorUrl, 'select nodename, nodeport, reportedstate::text, goalstate::text from pgautofailover.node order by nodeid');
      return rows.map((r) => ({ name: r.nodename, port: r.nodeport, reported: r.reportedstate, goal: r.goalstate }));
    },
    kill(name) {
      const child = runs.get(name);
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
      // The PostgreSQL server leaves pg_autoctl's process group when started through pg_ctl: stop it by its pid.
      const pid = spawnSync('head', ['-1', path.join(dir, name, 'postmaster.pid')], { encoding: 'utf8' }).stdout.trim();
      if (/^\d+$/.test(pid)) { try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone with its group */ } }
    },
    restart(name) {
      run(name, ['run', '--pgdata', `${dir}/${name}`]);
    },
    async stop() {
      for (const [name, child] of [...runs].reverse()) {
        if (child.exitCode === null && child.signalCode === null && child.pid) {
          try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
          await new Promise((resolve) => { child.once('exit', resolve); setTimeout(resolve, 15_000); });
        }
        void name;
      }
      for (const name of ['node1', 'node2', 'monitor']) spawnSync(`${PG_BIN}/pg_ctl`, ['-D', path.join(dir, name), 'stop', '-m', 'immediate'], { stdio: 'ignore', uid, gid });
      rmSync(dir, { recursive: true, force: true });
    },
  };

  for (const [i, port] of ports.entries()) {
    const name = `node${i + 1}`;
    once(name, ['create', 'postgres', '--pgdata', `${dir}/${name}`, '--pgport', String(port), '--name', name, '--dbname', 'tasman',
      '--monitor', `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`, ...common]);
    once(name, ['config', 'set', '--pgdata', `${dir}/${name}`, 'timeout.network_partition_timeout', String(NETWORK_PARTITION_TIMEOUT_S)]);
    run(name, ['run', '--pgdata', `${dir}/${name}`]);
    const want = i === 0 ? ['single'] : ['primary', 'secondary'];
    await until(async () => {
      const s = await formation.state();
      return s.length === i + 1 && s.every((n, k) => n.reported === want[k] && n.goal === want[k]);
    }, `${name} to join (${want.join(', ')})`, 180_000);
  }
  return formation;
}

export async function query<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}

export async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function postgresAccount(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('bench/failover.ts needs the postgres account (apt install postgresql-15-auto-failover)');
  return { uid, gid: id('-g') };
}
