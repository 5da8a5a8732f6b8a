// Chooses the carrier from configuration: the SMSC at SMPP_HOST, or, when it is unset, the built-in simulator
// (started by the composition root on 127.0.0.1:SIM_PORT) so a fresh install sends (to pretend phones) with no setup.
import type { Config } from '../config.ts';
import type { Carrier } from './carrier.ts';
import { createSmppCarrier } from './smpp/smpp-carrier.ts';
import { createSimulator, type Simulator } from './simulator/simulator.ts';
import type { Logger } from './smpp/logger.ts';

// `tasman simulator` runs the built-in SMSC alone; outside src/carrier it is reached only through this file.
export { createSimulator } from './simulator/simulator.ts';
export { createControlServer } from './simulator/control.ts';

/** What the rest of the process may do with the built-in SMSC: its port, and make it send an inbound message. */
export type SimulatorHandle = Pick<Simulator, 'port' | 'injectInbound' | 'stop'>;

/** Starts the built-in SMSC on 127.0.0.1:SIM_PORT (used when SMPP_HOST is unset). */
export async function startSimulator(config: Config, logger?: Logger): Promise<SimulatorHandle> {
  const simulator = createSimulator({
    port: config.simulator.port, host: '127.0.0.1', dlrDelayMs: config.simulator.dlrDelayMs, ...(logger ? { logger } : {}),
  });
  await simulator.start();
  return simulator;
}

/** The link to SMPP_HOST, or (when it is unset) to the built-in SMSC listening on `simulatorPort`. */
export function openCarrierLink(config: Config, simulatorPort: number | null, logger?: Logger): Carrier {
  const link = {
    systemId: config.smpp.systemId, password: config.smpp.password, window: config.smpp.window, tps: config.smpp.tps,
    concatRefBits: config.smpp.concatRefBits, validityHours: config.messageValidityHours, messageIds: config.smpp.messageIds,
    inboundDefaultAlphabet: config.smpp.inboundDefaultAlphabet, ...(logger ? { logger } : {}),
  };
  if (config.smpp.host !== null) {
    return createSmppCarrier({ ...link, host: config.smpp.host, port: config.smpp.port, tls: config.smpp.tls });
  }
  if (simulatorPort === null) throw new Error('SMPP_HOST is unset and no built-in SMSC was started');
  return createSmppCarrier({ ...link, host: '127.0.0.1', port: simulatorPort, tls: false });
}
