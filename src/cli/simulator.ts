import type { Config } from '../config.ts';
import { createControlServer, createSimulator } from '../carrier/index.ts';
import { createLogger } from '../platform/logger.ts';

/**
 * `tasman simulator`: the built-in SMSC alone, on 127.0.0.1:SIM_PORT, with its loopback control endpoint on
 * SIM_CONTROL_PORT (POST /inbound {from, to, text}). Runs until SIGINT or SIGTERM. Returns -1: the process stays up.
 */
export async function runSimulator(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  const simulator = createSimulator({
    port: config.simulator.port, host: '127.0.0.1', dlrDelayMs: config.simulator.dlrDelayMs, logger,
  });
  await simulator.start();
  const control = createControlServer({ simulator, port: config.simulator.controlPort });
  await control.start();
  logger.info({
    smpp: `127.0.0.1:${simulator.port}`, control: `http://127.0.0.1:${control.port}/inbound`, dlrDelayMs: config.simulator.dlrDelayMs,
  }, 'SMSC simulator running; numbers ending 999 undelivered, 998 expired, 997 no receipt, 996 refused at submit');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'simulator shutting down');
    Promise.all([control.stop(), simulator.stop()]).then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'simulator shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return -1;
}
