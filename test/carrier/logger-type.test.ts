// The carrier takes a pino logger as is: this fails to type-check if our Logger slice drifts from pino's.
import { expect, it } from 'vitest';
import pino from 'pino';
import { createSmppCarrier } from '../../src/carrier/smpp/smpp-carrier.ts';
import type { Logger } from '../../src/carrier/smpp/logger.ts';

it('accepts a pino logger', () => {
  const logger: Logger = pino({ level: 'silent' });
  const carrier = createSmppCarrier({ host: '127.0.0.1', port: 1, systemId: 'x', password: 'y', window: 1, tps: 1, logger });
  expect(carrier.health()).toEqual({ connected: false, bound: false, inFlight: 0, lastError: null });
});
