import { describe, expect, it } from 'vitest';
import { inboundFingerprint } from './inbox.service.ts';
import type { InboundSms } from '../../carrier/carrier.ts';

const sms = (extra: Partial<InboundSms> = {}): InboundSms => ({ from: '+61400000001', to: '+61400000002', text: 'yes', receivedAt: new Date(), carrier: 'a', ...extra });
const fp = (m: InboundSms) => inboundFingerprint(m, m.from, m.to);
const part = (seq: number, ref = 7) => ({ ref, total: 2, seq, octets: Buffer.from('yes'), coding: 'gsm' as const });

describe('MO fingerprint', () => {
  it('is the same for a resent copy, whenever it arrives', () => {
    expect(fp(sms())).toBe(fp(sms({ receivedAt: new Date(0) })));
    expect(fp(sms({ part: part(1) }))).toBe(fp(sms({ part: part(1) })));
  });

  it('differs by carrier, sender, number, text, and a part\'s reference, sequence and coding', () => {
    const base = fp(sms());
    for (const other of [sms({ carrier: 'b' }), sms({ from: '+61400000009' }), sms({ to: '+61400000009' }), sms({ text: 'Yes' })]) expect(fp(other)).not.toBe(base);
    const p = fp(sms({ part: part(1) }));
    expect(fp(sms({ part: part(2) }))).not.toBe(p);
    expect(fp(sms({ part: part(1, 8) }))).not.toBe(p);
    expect(fp(sms({ part: { ...part(1), coding: 'latin1' } }))).not.toBe(p);
  });

  it('is the carrier\'s own id where it gives one: two sends of one text are two messages', () => {
    expect(fp(sms({ vendorId: 'X1' }))).not.toBe(fp(sms({ vendorId: 'X2' })));
    expect(fp(sms({ vendorId: 'X1', text: 'a' }))).toBe(fp(sms({ vendorId: 'X1', text: 'b' })));
  });
});
