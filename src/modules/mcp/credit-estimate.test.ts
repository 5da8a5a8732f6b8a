import { describe, expect, it } from 'vitest';
import { estimateBatchCredits, estimateSendCredits, sampleOptoutLink } from './credit-estimate.ts';

const link = sampleOptoutLink('https://t.example/o/');

describe('credit estimate', () => {
  it('counts parts the way the send path does, after {{OptOutLink}}', () => {
    expect(estimateSendCredits('a'.repeat(160), link)).toBe(1);
    expect(estimateSendCredits('a'.repeat(161), link)).toBe(2);
    expect(link).toBe('https://t.example/o/XXXXXXX');
    // 140 characters plus a 27-character link pass 160: two parts.
    expect(estimateSendCredits(`${'a'.repeat(140)}{{OptOutLink}}`, link)).toBe(2);
  });

  it('skips invalid and duplicate numbers and merges per recipient', () => {
    const credits = estimateBatchCredits({
      message: 'Hi {{name}}',
      recipients: [
        '0412 345 678', '+61412345678', '12345',
        { phone: '021 123 4567', merge_data: { name: 'x'.repeat(200) } },
      ],
    }, link);
    // one part for the AU number (its duplicate skipped), two for the NZ one, nothing for the invalid one
    expect(credits).toBe(3);
  });

  it('is zero for a batch with no valid recipient', () => {
    expect(estimateBatchCredits({ message: 'hi', recipients: ['nope'] }, link)).toBe(0);
  });
});
