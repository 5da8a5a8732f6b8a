// Chooses the carriers from configuration: TASMAN_CARRIERS (several SMSCs and routes), the SMSC at SMPP_HOST
// (one carrier, `default`), or, when neither is set, the built-in simulator (SIM_CARRIERS of them, started by the
// composition root on 127.0.0.1 from SIM_PORT) so a fresh install sends (to pretend phones) with no setup.
import path from 'node:path';
import type { Config } from '../config.ts';
import { DEFAULT_CARRIER } from './carrier.ts';
import type { CarrierConfig } from './carriers-config.ts';
import { createCarrierSet, type CarrierSet } from './carrier-set.ts';
import { createSmppCarrier } from './smpp/smpp-carrier.ts';
import { createSimulator, type Simulator } from './simulator/simulator.ts';
import type { Logger } from './smpp/logger.ts';

// `tasman simulator` runs the built-in SMSC alone; outside src/carrier it is reached only through this file.
export { createSimulator } from './simulator/simulator.ts';
export { createControlServer } from './simulator/control.ts';
// Tasman's SMPP server for customers' own SMPP clients (the workers role starts it when SMPP_SERVER_PORT is set).
export { createSmppServer } from './smpp-server/server.ts';
export type { SmppServer, BindView } from './smpp-server/server.ts';
export type { CarrierReload, CarrierSet, CarrierSetView } from './carrier-set.ts';
export type { CarrierStatus } from './smpp/smpp-carrier.ts';
export type { BindStatus } from './smpp/bind-pool.ts';
export type { IdFormsStatus } from './smpp/id-forms.ts';
import type { RouteRule } from './routes.ts';
export type { RouteRule } from './routes.ts';
export { parseRoutesOnly } from './carriers-config.ts';

/** What the rest of the process may do with the built-in SMSC: its port, and make it send an inbound message. */
export type SimulatorHandle = Pick<Simulator, 'port' | 'injectInbound' | 'stop'>;

/** Carrier ids of the built-in simulators: `default` for one (as before), `sim1`, `sim2`… for several. */
export const simulatedCarrierIds = (count: number): string[] =>
  (count <= 1 ? [DEFAULT_CARRIER] : Array.from({ length: count }, (_, i) => `sim${i + 1}`));

/**
 * Starts SIM_CARRIERS built-in SMSCs on 127.0.0.1 from SIM_PORT (consecutive ports; 0 lets the OS pick each).
 * Used when neither TASMAN_CARRIERS nor SMPP_HOST is set. The first is the one `POST /admin/simulator/inbound` uses.
 */
export async function startSimulators(config: Config, logger?: Logger): Promise<SimulatorHandle[]> {
  const started: SimulatorHandle[] = [];
  try {
    for (let i = 0; i < config.carriers.simulated; i++) {
      const simulator = createSimulator({
        port: config.simulator.port === 0 ? 0 : config.simulator.port + i, host: '127.0.0.1', dlrDelayMs: config.simulator.dlrDelayMs,
        // Pending receipts survive a crash of the process (not in Tasman's database: the simulator stands for a carrier).
        journalFile: path.join(config.dataDir, 'simulator', `smsc-${i + 1}.receipts`),
        ...(logger ? { logger } : {}),
      });
      await simulator.start();
      started.push(simulator);
    }
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
  return started;
}

/** The configured carriers, or one carrier per built-in SMSC (each the next one's backup). */
export function carrierConfigs(config: Config, simulatorPorts: number[]): { carriers: CarrierConfig[]; routes: RouteRule[] } {
  if (config.carriers.config) return config.carriers.config;
  if (simulatorPorts.length === 0) throw new Error('no carrier is configured and no built-in SMSC was started');
  const ids = simulatedCarrierIds(simulatorPorts.length);
  const carriers = simulatorPorts.map((port, i): CarrierConfig => ({
    id: ids[i]!, host: '127.0.0.1', port, tls: false, systemId: config.smpp.systemId, password: config.smpp.password, systemType: '',
    bindMode: 'transceiver', binds: 1, window: config.smpp.window, tps: config.smpp.tps, messageIds: config.smpp.messageIds,
    dataCoding: 0, validityHours: config.messageValidityHours, querySm: false, querySmAfterMs: 0, concatRefBits: config.smpp.concatRefBits,
    inboundDefaultAlphabet: config.smpp.inboundDefaultAlphabet, failoverAfterMs: 30_000,
  }));
  return { carriers, routes: [{ carriers: ids }] };
}

/** Every configured carrier behind one Carrier port, routed (not started: the carrier role starts it). */
export function openCarriers(config: Config, simulatorPorts: number[], logger?: Logger): CarrierSet {
  const { carriers, routes } = carrierConfigs(config, simulatorPorts);
  const build = (c: CarrierConfig) => createSmppCarrier({
    name: c.id, host: c.host, port: c.port, tls: c.tls, systemId: c.systemId, password: c.password, systemType: c.systemType,
    binds: c.binds, bindMode: c.bindMode, window: c.window, tps: c.tps, messageIds: c.messageIds, gsmDataCoding: c.dataCoding,
    validityHours: c.validityHours, concatRefBits: c.concatRefBits, inboundDefaultAlphabet: c.inboundDefaultAlphabet,
    failoverAfterMs: c.failoverAfterMs, ...(c.querySm ? { querySmAfterMs: c.querySmAfterMs } : {}), ...(c.moIdTlv !== undefined ? { moIdTlv: c.moIdTlv } : {}), ...(logger ? { logger } : {}),
  });
  return createCarrierSet({ carriers, routes, build });
}
