// The child's side of `tasman start` with TASMAN_WORKERS ≥ 1 (cli/supervise.ts is the primary's): how a process
// of the cluster reaches the others. Only the primary talks to every child, so requests go through it.
import cluster from 'node:cluster';
import { AppError, type ErrorCode } from '../errors.ts';
import { createRpc, isClusterMessage, type Handler } from './rpc.ts';

export interface CarrierState { name: string; bound: boolean; address?: string }

/**
 * What the workers process publishes of its carriers: each link's state, and the countries a route names whose
 * carriers are all down, so an API process's /status is degraded exactly as a single process's would be.
 */
export interface CarrierPublication { carriers: CarrierState[]; unservedCountries: string[] }

/** What an API process asks of the workers process: it holds the carrier link and the built-in SMSC. */
export interface WorkersPeer {
  /**
   * Whether this service runs a workers process beside the API processes. False with TASMAN_ROLES=api: the carrier
   * link runs in another service on the same database, which this process can neither see nor answer for.
   */
  runsWorkers: boolean;
  /** The carrier links as the workers process last reported them; one unbound entry while it is not running. */
  carriers(): CarrierState[];
  /** Countries a route names with no bound carrier, as the workers process last reported them. */
  unservedCountries(): string[];
  /** Makes the built-in SMSC (in the workers process) send an inbound message. */
  injectInbound(message: { from: string; to: string; text: string }): Promise<void>;
  /** GET /metrics: every process's metrics, added up by the primary. */
  renderMetrics(): Promise<string>;
  /** GET /admin/carriers and the route reload, answered by the workers process, which holds the carriers. */
  carrierAdmin(op: CarrierAdminOp): Promise<unknown>;
}

export type CarrierAdminOp = 'view' | 'reload' | 'reload-carriers';
/** A coded error crosses the IPC channel as data, so the API process answers with the workers process's status. */
export type RelayedAnswer = { value: unknown } | { error: { code: ErrorCode; message: string } };

/** The workers process's side of a relayed operator call: an AppError travels back with its code. */
export async function relayAnswer(work: () => Promise<unknown>): Promise<RelayedAnswer> {
  try {
    return { value: await work() };
  } catch (err) {
    if (err instanceof AppError) return { error: { code: err.code, message: err.message } };
    throw err;
  }
}

export interface ClusterPeer {
  workers: WorkersPeer;
  /** Answers the primary's requests of this kind. */
  handle(kind: string, handler: Handler): void;
  /** Tells the primary this process serves (url: its API address, '' without the API role). */
  ready(info: { url: string; dashboard: boolean }): void;
  /** Workers process: reports the carrier links now and whenever they change. Returns a stop. */
  publishCarriers(read: () => CarrierPublication): () => void;
}

/** Set by the primary on every child it forks: 1 when the service runs a workers process, 0 when it does not. */
export const CLUSTER_WORKERS_ENV = 'TASMAN_CLUSTER_WORKERS';

const NOT_RUNNING: CarrierState[] = [{ name: 'the carrier (its workers process is not running)', bound: false }];
const PUBLISH_EVERY_MS = 500;

/** This process's place in the cluster, or null when it was not forked by `tasman start`'s primary. */
export function joinCluster(): ClusterPeer | null {
  if (!cluster.isWorker) return null;
  const send = (message: Parameters<Parameters<typeof createRpc>[0]>[0]) => { process.send!(message); };
  const rpc = createRpc(send);
  let carriers: CarrierState[] | null = null;
  let unservedCountries: string[] = [];
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message) || rpc.receive(message)) return;
    if (message.tasman === 'carriers') {
      carriers = message.carriers;
      unservedCountries = message.unservedCountries ?? [];
    }
  });
  return {
    workers: {
      runsWorkers: process.env[CLUSTER_WORKERS_ENV] !== '0',
      carriers: () => carriers ?? NOT_RUNNING,
      unservedCountries: () => unservedCountries,
      injectInbound: async (message) => { await rpc.request('inbound', message); },
      renderMetrics: () => rpc.request<string>('metrics'),
      carrierAdmin: async (op) => {
        const answer = await rpc.request<RelayedAnswer>('carrier-admin', op, 20_000).catch((err: Error) => {
          throw new AppError('service_unavailable', `The workers process, which holds the carriers, did not answer: ${err.message}`);
        });
        if ('error' in answer) throw new AppError(answer.error.code, answer.error.message);
        return answer.value;
      },
    },
    handle(kind, handler) { rpc.handlers[kind] = handler; },
    ready(info) { send({ tasman: 'ready', ...info }); },
    publishCarriers(read) {
      let last = '';
      const publish = () => {
        const now = read();
        const text = JSON.stringify(now);
        if (text === last || !process.connected) return;
        last = text;
        send({ tasman: 'carriers', ...now });
      };
      publish();
      const timer = setInterval(publish, PUBLISH_EVERY_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
