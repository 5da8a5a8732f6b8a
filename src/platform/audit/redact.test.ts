import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { changedFields, redact, REDACTED } from './redact.ts';

describe('redact', () => {
  it('replaces secret-named text fields and keeps flags and counts under such names', () => {
    expect(redact({
      key: 'tsm_x', api_key: 'a', secret: 's', signing_secret: 's', password: 'p', new_password: 'p', token: 't', csrf_token: 't',
      key_hash: 'h', credentials: 'u:p', code: '123456', codes: ['a', 'b'], recovery_codes: ['c'], invite_link: 'https://x/#tok',
      secret_rotated: true, recovery_codes_left: 8,
    })).toEqual({
      key: REDACTED, api_key: REDACTED, secret: REDACTED, signing_secret: REDACTED, password: REDACTED, new_password: REDACTED,
      token: REDACTED, csrf_token: REDACTED, key_hash: REDACTED, credentials: REDACTED, code: REDACTED, codes: REDACTED,
      recovery_codes: REDACTED, invite_link: REDACTED, secret_rotated: true, recovery_codes_left: 8,
    });
  });

  it('keeps what describes a key without being it, and ordinary fields', () => {
    const fields = { key_id: '018f0000-0000-7000-8000-000000000000', prefix: 'tsm_AbCd1234', scopes: ['read'], name: 'ci', country: 'AU', amount: 5 };
    expect(redact(fields)).toEqual(fields);
  });

  it('redacts a whole API key or signing secret wherever it sits, and credentials in URLs', () => {
    const key = `tsm_${'A1b2'.repeat(8)}`;
    expect(redact({ note: key, nested: { list: ['ok', 'whsec_abcdefghijklmnop'] } })).toEqual({ note: REDACTED, nested: { list: ['ok', REDACTED] } });
    expect(redact({ url: 'https://user:pa55@hooks.example/x' })).toEqual({ url: `https://${REDACTED}@hooks.example/x` });
  });

  it('keeps null as null and drops undefined fields', () => {
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeNull();
    expect(redact({ a: undefined, b: null })).toEqual({ b: null });
  });

  it('never lets a generated secret through, under any field name or depth', () => {
    const secret = fc.oneof(
      fc.stringMatching(/^[0-9A-Za-z]{32}$/).map((s) => `tsm_${s}`),
      fc.base64String({ minLength: 12, maxLength: 48 }).map((s) => `whsec_${s}`),
    );
    const name = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(fc.property(secret, name, name, (s, outer, inner) => {
      const stored = JSON.stringify(redact({ [outer]: { [inner]: [s, `prefix ${s} suffix`] } }));
      return !stored.includes(s);
    }));
  });
});

describe('changedFields', () => {
  it('keeps only the fields that changed, with their old and new values', () => {
    expect(changedFields({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', c: 3 })).toEqual({ before: { b: 'x', c: null }, after: { b: 'y', c: 3 } });
    expect(changedFields({ a: [1, 2] }, { a: [1, 2] })).toEqual({ before: {}, after: {} });
    expect(changedFields({ a: 1 }, { b: 2 })).toEqual({ before: { b: null }, after: { b: 2 } });
  });
});
