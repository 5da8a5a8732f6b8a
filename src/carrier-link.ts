// Composition of the carrier role (started by workers.ts): the SMPP link (or the built-in SMSC and a link to
// it), the dispatcher feeding it, and the receipt and inbound services behind it. It lives beside workers.ts
// rather than under modules/ because it is where SMPP meets the modules, and modules never import SMPP code.
import type { Config } from './config.ts';
import type { Logger } from './platform/logger.ts';
import type { Services } from './services.ts';
import { openCarrierLink } from './carrier/index.ts';
import { createDispatcher } from './modules/dispatch/dispatcher.jobs.ts';

const SWEEP_MS = 10 * 60_000;
// A receipt still parked after a week names a message Tasman never sent (or one long gone).
const PARKED_RECEIPT_TTL_MS = 7 * 24 * 60 * 60_000;

/** Starts the link and the dispatcher; the returned stop drains them in order. */
export async function startCarrierLink(deps: { config: Config; services: Services; logger: Logger }): Promise<() => Promise<void>> {
  const { config, services } = deps;
  const logger = deps.logger.child({ component: 'carrier' });
  const link = await openCarrierLink(config, logger);
  if (link.simulator) logger.info({ port: link.simulator.port }, 'built-in SMSC simulator started (SMPP_HOST is unset)');

  // The receipt and inbox services wake the webhook worker themselves after committing an event.
  await link.carrier.start({
    onReceipt: (receipt) => services.receipts.onReceipt(receipt),
    onInbound: async (sms) => {
      const row = await services.inbox.receive(sms);
      if (row && row.accountId === null) {
        logger.warn({ id: row.id, from: row.from, to: row.to }, 'inbound message for a number no account holds; stored unrouted');
      }
    },
  });
  services.simulator.current = link.simulator;

  const dispatcher = createDispatcher({
    db: services.db,
    carrier: link.carrier,
    signal: services.signals.queued,
    receipts: services.receipts,
    window: config.smpp.window,
    logger: logger.child({ role: 'dispatcher' }),
  });
  await dispatcher.start();

  const sweep = setInterval(() => {
    services.receipts.purgeParked(PARKED_RECEIPT_TTL_MS).catch((err: Error) => logger.warn({ err: err.message }, 'parked receipt purge failed'));
    services.inbox.purgeFragments().catch((err: Error) => logger.warn({ err: err.message }, 'inbound fragment purge failed'));
  }, SWEEP_MS);
  sweep.unref();

  return async () => {
    clearInterval(sweep);
    // Stop claiming and let every submit in flight finish and be recorded, then unbind, then stop the SMSC.
    await dispatcher.stop();
    await link.carrier.stop();
    services.simulator.current = null;
    await link.stopSimulator();
  };
}
