import type { Algorithm } from '@node-rs/argon2';
import { once } from '../../common/once.ts';

// OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane): about 30 ms here, so a sign-in costs little.
// Algorithm.Argon2id is 2 (a const enum, which this build cannot import as a value).
const ARGON = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
// The native argon2 module, and the dummy hash (19 MiB of hashing), only when someone first signs in: most API
// processes never see a sign-in, and both cost resident memory at rest (decision 0037).
const loadArgon = once(() => import('@node-rs/argon2'));
/** A new password's Argon2id hash. */
export const hashPassword = async (password: string) => (await loadArgon()).hash(password, ARGON);
export const argonVerify = async (hashed: string, password: string) => (await loadArgon()).verify(hashed, password);
/** Verified when an email has no account, so a missing email takes as long to refuse as a wrong password. */
export const dummyHash = once(() => hashPassword('tasman-dummy-password'));
