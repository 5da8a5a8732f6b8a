import { createHash, randomBytes } from 'node:crypto';
import { once } from '../../common/once.ts';

/**
 * The TOTP second factor's pure parts (RFC 6238 through otplib: SHA-1, 6 digits, 30-second steps, which every
 * authenticator app reads from the otpauth URI). Codes are accepted one step either side of now (clock drift and
 * the time it takes to type), and only in a step after the last one accepted for the user (replay).
 */
export const PERIOD_SECONDS = 30;
const ISSUER = 'Tasman';
const RECOVERY_CODES = 10;

// Loaded at first use, like argon2: most processes never see a second factor (resident memory at rest).
const loadOtp = once(() => import('otplib'));

export const newTotpSecret = async (): Promise<string> => (await loadOtp()).generateSecret({ length: 20 });

export const otpauthUri = async (email: string, secret: string): Promise<string> =>
  (await loadOtp()).generateURI({ issuer: ISSUER, label: email, secret });

export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));

/**
 * The time step `code` belongs to when it is valid at `at` (±1 step) and later than `afterStep`; else null. The
 * caller records the step (atomically, so two requests with one code cannot both pass).
 */
export async function acceptedStep(secret: string, code: string, at: Date, afterStep: number | null): Promise<number | null> {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const result = await (await loadOtp()).verify({
    secret, token, epoch: Math.floor(at.getTime() / 1000), epochTolerance: PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // The result type covers HOTP too, whose valid result has no time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

// Recovery codes: 10 characters of a 32-character alphabet without i, l, o or 1 (50 bits), shown as xxxxx-xxxxx.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz023456789';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const text = [...bytes].map((b) => ALPHABET[b & 31]).join('');
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** As typed (any case, spaces or dashes anywhere) to the form that is hashed. */
export const normalRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

/** Recovery codes are random, so SHA-256 is enough (a slow hash protects guessable passwords). */
export const hashRecoveryCode = (code: string): string => createHash('sha256').update(normalRecoveryCode(code)).digest('hex');
