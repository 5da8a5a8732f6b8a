import { describe, expect, it } from 'vitest';
import { createIdForms } from './id-forms.ts';
import { silentLogger } from './logger.ts';

const forms = (configured = {}) => createIdForms(configured, 'c1', silentLogger);

describe('learnt id forms', () => {
  it('an all-digit receipt id has a decimal and a hex reading until the forms are known', () => {
    const f = forms();
    expect(f.receiptReadings('12345').map((r) => r.id)).toEqual(['12345', '3039', '74565']);
    // A letter in a submit id proves hex; then only the two receipt readings remain.
    expect(f.submitId('1a')).toBe('26');
    expect(f.status().submit).toBe('hex');
    expect(f.submitId('12345')).toBe('74565');
    expect(f.receiptReadings('74565').map((r) => r.id)).toEqual(['74565', '476517']);
  });

  it('learns the receipt form from a receipt that matched exactly one message, then reads one way', () => {
    const f = forms({ submit: 'hex' });
    const readings = f.receiptReadings('100');
    expect(readings.map((r) => r.id)).toEqual(['100', '256']);
    f.matched(readings[1]!, readings.length);
    expect(f.status()).toMatchObject({ submit: 'hex', receipt: 'hex' });
    expect(f.receiptReadings('100').map((r) => r.id)).toEqual(['256']);
  });

  it('a hex submit id without a letter, stored as decimal before the form was known, is still found', () => {
    const f = forms();
    expect(f.submitId('12345')).toBe('12345');
    // The SMSC writes the receipt in decimal: 0x12345 = 74565.
    const readings = f.receiptReadings('74565');
    const misread = readings.find((r) => r.id === '12345');
    expect(misread).toMatchObject({ receipt: 'decimal', submitHex: true });
    f.matched(misread!, readings.length);
    expect(f.status()).toMatchObject({ submit: 'hex', receipt: 'decimal' });
  });

  it('configured forms and non-numeric ids have one reading; conflicts are counted with a sample', () => {
    expect(forms({ submit: 'hex', receipt: 'decimal' }).receiptReadings('0100').map((r) => r.id)).toEqual(['100']);
    expect(forms().receiptReadings('R17').map((r) => r.id)).toEqual(['r17']);
    const f = forms();
    f.conflict('777');
    f.conflict('778');
    expect(f.status()).toMatchObject({ conflicts: 2, conflictSample: '777' });
  });

  it('takes all-digit submit ids as decimal after a long run without a letter', () => {
    const f = forms();
    for (let i = 0; i < 64; i++) f.submitId(String(1000 + i));
    expect(f.status().submit).toBe('decimal');
  });
});
