// The primary of `tasman start` with TASMAN_WORKERS=N ≥ 1: it starts the embedded PostgreSQL (once) and creates the
// generated secrets before any child can race for them, then forks N API processes sharing one port
// (Node's cluster) and one workers process (dispatcher, carrier link, receipts, webhooks, periodic jobs). It
// serves nothing itself: it relays between children (metrics, the carrier state, the simulator route) and
// supervises them. It opens no connection and loads no database driver beyond what starting the embedded server
// needs: the children migrate (under the advisory lock every Tasman process takes), the first API process alone,
// so a database that cannot be reached fails start-up with that child's one line. Decision:
// docs/decisions/0020-a-cluster-of-processes-on-one-port.md.
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../config.ts';
import type { Logger } from '../platform/logger.ts';
import { loadOrCreateAdminToken } from '../platform/admin-token.ts';
import { loadOrCreateKey } from '../platform/crypto/secret-box.ts';
import { createRpc, isClusterMessage, type Rpc } from '../platform/cluster/rpc.ts';
import { afterCrash, restartTimers } from '../platform/cluster/restart-policy.ts';
import { CLUSTER_WORKERS_ENV, type CarrierState } from '../platform/cluster/peer.ts';
import { banner, settleHeap, STOP_SIGNALS, type Serving } from './serving.ts';

type Role = 'api' | 'workers';

interface Child { role: Role; worker: Worker; rpc: Rpc; ready: boolean; serving?: Serving }

/**
 * Every message the primary sends a child goes through here. A child whose channel has closed is still in
 * `children` until its exit event is handled; sending to it threw ERR_IPC_CHANNEL_CLOSED (out of the workers
 * process's exit handler, taking the primary down), so the message is dropped: the exit that follows handles it.
 */
const sendTo = (worker: Worker, message: Parameters<Worker['send']>[0]) => { if (worker.isConnected()) worker.send(message); };

/** A child exited before it served: it has printed why (one line), so the primary only stops the rest. */
class ChildFailedToStart extends Error {}

const STOP_TIMEOUT_MS = 20_000;

function createSupervisor(options: { apiProcesses: number; workers: boolean; env: Record<string, string>; workersEnv: Record<string, string>; logger: Logger }) {
  const { logger } = options;
  const children = new Set<Child>();
  let carriers: CarrierState[] | null = null;
  let unservedCountries: string[] = [];
  let crashes: number[] = [];
  const restarts = restartTimers();
  let stopping = false;
  let starting = true;
  let giveUp: () => void = () => {};
  const failed = new Promise<void>((resolve) => { giveUp = resolve; });

  const readyChildren = (role?: Role) => [...children].filter((c) => c.ready && (!role || c.role === role));
  const broadcastCarriers = () => {
    for (const child of readyChildren('api')) sendTo(child.worker, { tasman: 'carriers', carriers, unservedCountries });
  };

  // Requests a child makes of the others, answered here.
  const handlers = {
    /** Every child's registry, added up (prom-client's cluster aggregation, per metric's `aggregator`). */
    async metrics() {
      // Loaded by the first scrape: the primary registers no metric of its own.
      const { AggregatorRegistry } = await import('prom-client');
      const all = await Promise.all(readyChildren().map((c) => c.rpc.request<MetricObjectWithValues<MetricValue<string>>[]>('metrics-json', null, 5_000)));
      return AggregatorRegistry.aggregate(all).metrics();
    },
    async 'carrier-admin'(payload: unknown) {
      const [workers] = readyChildren('workers');
      if (!workers) throw new Error('the workers process, which holds the carriers, is not running');
      return workers.rpc.request('carrier-admin', payload, 15_000);
    },
    async inbound(payload: unknown) {
      const [workers] = readyChildren('workers');
      if (!workers) throw new Error('the workers process, which runs the built-in SMSC, is not running');
      return workers.rpc.request('inbound', payload, 20_000);
    },
  };

  /** Forks one child; resolves when it serves, rejects if it exits first. */
  function fork(role: Role): Promise<Child> {
    const worker = cluster.fork({
      ...options.env, ...(role === 'workers' ? options.workersEnv : {}), TASMAN_ROLES: role, [CLUSTER_WORKERS_ENV]: options.workers ? '1' : '0',
    });
    const child: Child = { role, worker, ready: false, rpc: createRpc((m) => sendTo(worker, m), handlers) };
    children.add(child);
    // An IPC failure is the child's end (its exit follows and is handled there), never the primary's.
    worker.on('error', (err) => logger.warn({ role, err: err.message }, 'a child process channel failed'));
    return new Promise<Child>((resolve, reject) => {
      worker.on('message', (message: unknown) => {
        if (!isClusterMessage(message) || child.rpc.receive(message)) return;
        if (message.tasman === 'ready') {
          child.ready = true;
          child.serving = { url: message.url, dashboard: message.dashboard };
          if (role === 'api') sendTo(worker, { tasman: 'carriers', carriers, unservedCountries });
          resolve(child);
        } else if (message.tasman === 'carriers' && role === 'workers') {
          carriers = message.carriers;
          unservedCountries = message.unservedCountries ?? [];
          broadcastCarriers();
        }
      });
      worker.once('exit', (code, signal) => {
        children.delete(child);
        child.rpc.abandon(`the ${role} process exited`);
        if (role === 'workers' && child.ready) { carriers = null; unservedCountries = []; broadcastCarriers(); }
        if (!child.ready) reject(new ChildFailedToStart(`a ${role} process exited with ${code ?? signal} before it served`));
        if (!stopping && !starting) crashed(role, child.ready, code, signal);
      });
    });
  }

  /** A child died after start-up: start another (it may fail too: that counts as a crash), or give up. */
  function crashed(role: Role, wasReady: boolean, code: number | null, signal: string | null) {
    const verdict = afterCrash(crashes, Date.now());
    crashes = verdict.crashes;
    if (!verdict.restart) {
      logger.fatal({ role, code, signal, crashes: crashes.length }, 'tasman processes keep exiting: stopping the service');
      giveUp();
      return;
    }
    const which = role === 'api' ? 'an API' : 'the workers';
    logger.error({ role, code, signal, restart_in_ms: verdict.delayMs }, wasReady ? `${which} process exited: starting another` : `${which} process failed to start again: trying once more`);
    restarts.after(verdict.delayMs, () => {
      if (!stopping) fork(role).catch(() => { /* its exit handler counts it */ });
    });
  }

  return {
    failed,
    /** The first API process alone (a taken port fails once, with one line), then the rest beside the workers. */
    async start(): Promise<Serving> {
      const first = options.apiProcesses > 0 ? await fork('api') : null;
      const rest = Array.from({ length: Math.max(0, options.apiProcesses - 1) }, () => fork('api'));
      if (options.workers) rest.push(fork('workers'));
      await Promise.all(rest);
      starting = false;
      return { url: first?.serving?.url ?? '', dashboard: first?.serving?.dashboard ?? false, processes: { api: options.apiProcesses, workers: options.workers ? 1 : 0 } };
    },
    /** SIGTERM to every child (each drains and closes), SIGKILL to any still running after 20 s. */
    async stop(): Promise<void> {
      stopping = true;
      restarts.clear();
      const live = [...children].map((c) => c.worker).filter((w) => w.process.exitCode === null && w.process.signalCode === null);
      const exits = live.map((w) => once(w, 'exit').catch(() => {}));
      for (const w of live) w.process.kill('SIGTERM');
      const timer = setTimeout(() => { for (const w of live) w.process.kill('SIGKILL'); }, STOP_TIMEOUT_MS);
      await Promise.all(exits);
      clearTimeout(timer);
    },
  };
}

/**
 * Runs the primary until SIGINT, SIGTERM or SIGHUP (or until children keep crashing: exit 1). With the embedded
 * database it owns the server (its children share it and stop it never); every child opens its own pool.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<number> {
  // Loaded only then: it brings the pg driver, which a primary beside an operator's PostgreSQL has no use for.
  const database = config.embedded
    ? await (await import('../platform/db/embedded/server.ts')).startEmbeddedPostgres({ dataDir: config.dataDir, serverUser: config.postgresUser })
    : { stop: async () => {} };
  const pool = poolFor(config);
  const supervisor = createSupervisor({
    apiProcesses: config.apiProcesses, workers: config.roles.workers, logger,
    env: pool ? { DATABASE_POOL_SIZE: String(pool) } : {}, workersEnv: await simulatorPort(config),
  });
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await supervisor.stop();
    await database.stop();
    process.exit(code);
  };
  try {
    // Created here, once: children starting together would otherwise each generate a different one.
    loadOrCreateKey({ envValue: config.secretKey ?? undefined, dataDir: config.dataDir });
    if (!config.adminToken && config.embedded && loadOrCreateAdminToken(config.dataDir).created) {
      logger.info({ file: `${config.dataDir}/admin.token` }, 'generated an operator token');
    }
    banner(config, await supervisor.start(), logger);
    settleHeap();
  } catch (err) {
    await supervisor.stop();
    await database.stop();
    // The child said why on its own stderr, in one line; saying more here would only repeat it.
    if (err instanceof ChildFailedToStart) process.exit(1);
    throw err;
  }
  void supervisor.failed.then(() => shutdown(1));
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      logger.info({ signal }, 'shutting down');
      void shutdown(0);
    });
  }
  return -1;
}

/**
 * Cluster children share listening sockets by address and port, so a built-in SMSC on port 0 would share the
 * API's "random" port 0 with it (HTTP requests reaching the SMSC). SIM_PORT=0 is therefore chosen here, once.
 */
async function simulatorPort(config: Config): Promise<Record<string, string>> {
  if (config.carriers.config !== null || config.simulator.port !== 0) return {};
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return { SIM_PORT: String(port) };
}

// The embedded server's max_connections (platform/db/embedded/server.ts), less room for `tasman migrate`, psql
// and each child's LISTEN connection.
const EMBEDDED_CONNECTIONS = 180;

/** On the embedded server, a smaller pool per child when every child's DATABASE_POOL_SIZE would not fit. */
function poolFor(config: Config): number | null {
  if (!config.embedded) return null;
  const children = config.apiProcesses + (config.roles.workers ? 1 : 0);
  const fits = Math.floor(EMBEDDED_CONNECTIONS / children) - 1;
  return config.databasePoolSize > fits ? Math.max(2, fits) : null;
}
