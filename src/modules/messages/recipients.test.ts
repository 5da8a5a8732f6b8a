import { describe, expect, it } from 'vitest';
import { readRecipient } from './recipients.ts';

describe('readRecipient', () => {
  it('reads every accepted form as {phone, merge_data}', () => {
    expect(readRecipient('+61412345678')).toEqual({ phone: '+61412345678' });
    expect(readRecipient({ phone: '0412', merge_data: { name: 'Ana' } })).toEqual({ phone: '0412', merge_data: { name: 'Ana' } });
    expect(readRecipient({ to: '0412', name: 'Ana', code: '7' })).toEqual({ phone: '0412', merge_data: { name: 'Ana', code: '7' } });
    expect(readRecipient({ to: '0412' })).toEqual({ phone: '0412', merge_data: {} });
  });
});
