import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { acceptedStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri } from './totp.ts';

const AT = new Date('2026-11-22T10:00:10Z');
const step = (d: Date) => Math.floor(d.getTime() / 30_000);
const codeAt = (secret: string, d: Date) => generate({ secret, epoch: Math.floor(d.getTime() / 1000) });
const shift = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);

describe('TOTP', () => {
  it('accepts the code of now and one step either side, not two', async () => {
    const secret = await newTotpSecret();
    expect(await acceptedStep(secret, await codeAt(secret, AT), AT, null)).toBe(step(AT));
    expect(await acceptedStep(secret, await codeAt(secret, shift(AT, -30)), AT, null)).toBe(step(AT) - 1);
    expect(await acceptedStep(secret, await codeAt(secret, shift(AT, 30)), AT, null)).toBe(step(AT) + 1);
    expect(await acceptedStep(secret, await codeAt(secret, shift(AT, -60)), AT, null)).toBeNull();
    expect(await acceptedStep(secret, await codeAt(secret, shift(AT, 60)), AT, null)).toBeNull();
  });

  it('refuses a code of a step already used, and anything but six digits', async () => {
    const secret = await newTotpSecret();
    const code = await codeAt(secret, AT);
    expect(await acceptedStep(secret, code, AT, step(AT))).toBeNull();
    expect(await acceptedStep(secret, code, AT, step(AT) - 1)).toBe(step(AT));
    expect(await acceptedStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, AT, null)).toBe(step(AT));
    expect(await acceptedStep(secret, `${code}0`, AT, null)).toBeNull();
    expect(await acceptedStep(secret, 'abcdef', AT, null)).toBeNull();
  });

  it('writes an otpauth URI an authenticator app reads', async () => {
    const secret = await newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await otpauthUri('sam@cafe.test', secret)).toBe(`otpauth://totp/Tasman:sam%40cafe.test?secret=${secret}&issuer=Tasman`);
  });
});

describe('recovery codes', () => {
  it('ten distinct codes; the hash ignores case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hj-km-np-z02-9]{5}-[a-hj-km-np-z02-9]{5}$/);
    expect(hashRecoveryCode(codes[0]!.toUpperCase().replace('-', ' '))).toBe(hashRecoveryCode(codes[0]!));
    expect(hashRecoveryCode(codes[0]!)).not.toBe(hashRecoveryCode(codes[1]!));
  });
});
