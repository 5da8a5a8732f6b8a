// Chooses the carrier from configuration: the SMSC at SMPP_HOST, or, when it is unset, the built-in simulator
// started here on 127.0.0.1:SIM_PORT so a fresh install sends (to pretend phones) with no setup.
import type { Config } from '../config.ts';
import type { Carrier } from './carrier.ts';
import { createSmppCarrier } from './smpp/smpp-carrier.ts';
import { createSimulator, type Simulator } from './simulator/simulator.ts';
import type { Logger } from './smpp/logger.ts';

export interface CarrierLink {
  carrier: Carrier;
  /** The built-in SMSC, when this process runs it. */
  simulator: Simulator | null;
  /** Stops the simulator (after the carrier has unbound from it). */
  stopSimulator(): Promise<void>;
}

export async function openCarrierLink(config: Config, logger?: Logger): Promise<CarrierLink> {
  const link = {
    systemId: config.smpp.systemId, password: config.smpp.password, window: config.smpp.window, tps: config.smpp.tps,
    ...(logger ? { logger } : {}),
  };
  if (config.smpp.host !== null) {
    return {
      carrier: createSmppCarrier({ ...link, host: config.smpp.host, port: config.smpp.port, tls: config.smpp.tls }),
      simulator: null,
      stopSimulator: async () => {},
    };
  }
  const simulator = createSimulator({
    port: config.simulator.port, host: '127.0.0.1', dlrDelayMs: config.simulator.dlrDelayMs, ...(logger ? { logger } : {}),
  });
  await simulator.start();
  return {
    carrier: createSmppCarrier({ ...link, host: '127.0.0.1', port: simulator.port, tls: false }),
    simulator,
    stopSimulator: () => simulator.stop(),
  };
}
