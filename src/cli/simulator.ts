import type { Config } from '../config.ts';
import { createControlServer, simulatedCarrierIds, startSimulators } from '../carrier/index.ts';
import { createLogger } from '../platform/logger.ts';
import { portInUse } from '../platform/startup-error.ts';
import { STOP_SIGNALS } from './serving.ts';

/**
 * `tasman simulator`: the built-in SMSCs alone (SIM_CARRIERS of them, on 127.0.0.1 from SIM_PORT, consecutive
 * ports), with one loopback control endpoint on SIM_CONTROL_PORT (POST /inbound {from, to, text, smsc?}). Runs
 * until SIGINT, SIGTERM or SIGHUP. A taken port is one line naming SIM_PORT or SIM_CONTROL_PORT. Returns -1: the
 * process stays up.
 */
export async function runSimulator(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  const simulators = await startSimulators(config, logger).catch((err: { port?: number }) => {
    throw portInUse(err, 'SIM_PORT', err.port ?? config.simulator.port);
  });
  const control = createControlServer({ simulators, port: config.simulator.controlPort });
  try {
    await control.start();
  } catch (err) {
    await Promise.all(simulators.map((s) => s.stop()));
    throw portInUse(err, 'SIM_CONTROL_PORT', config.simulator.controlPort);
  }
  const ids = simulatedCarrierIds(simulators.length);
  logger.info({
    // `smpp` is the first (scripts read it); `smscs` names every one as the carrier ids Tasman gives them.
    smpp: `127.0.0.1:${simulators[0]!.port}`,
    smscs: Object.fromEntries(simulators.map((s, i) => [ids[i]!, `127.0.0.1:${s.port}`])),
    control: `http://127.0.0.1:${control.port}/inbound`, dlrDelayMs: config.simulator.dlrDelayMs,
  }, 'SMSC simulator running; numbers ending 999 undelivered, 998 expired, 997 no receipt, 996 refused at submit');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'simulator shutting down');
    Promise.all([control.stop(), ...simulators.map((s) => s.stop())]).then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'simulator shutdown failed');
      process.exit(1);
    });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));
  return -1;
}
