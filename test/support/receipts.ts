import { randomUUID } from 'node:crypto';
import type { Receipt } from '../../src/carrier/carrier.ts';

/** A fresh SMSC message id, as an SMSC's 16 hex digits. */
export const smscId = (): string => randomUUID().replace(/-/g, '').slice(0, 16);

/** A final DELIVRD receipt for the id, with any field overridden. */
export const receipt = (id: string, r: Partial<Receipt> = {}): Receipt =>
  ({ smscMessageId: id, state: 'delivered', final: true, errorCode: '000', doneAt: new Date(), ...r });
