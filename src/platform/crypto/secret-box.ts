import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../startup-error.ts';

/**
 * Encrypts secrets at rest (webhook signing secrets) with AES-256-GCM under one service key.
 *
 * Sealed layout: [version 0x01][12-byte random nonce][ciphertext][16-byte GCM tag]. The version byte is also
 * authenticated (as additional data), so a future format can be introduced without ambiguity and an old blob
 * cannot be relabelled. Random 96-bit nonces are safe here: far fewer than 2^32 secrets are sealed under one key.
 */

const VERSION = 0x01;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const HEADER = Buffer.from([VERSION]);

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) throw new Error(`secret-box key must be ${KEY_BYTES} bytes`);
}

export function seal(key: Buffer, plaintext: string): Buffer {
  assertKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(HEADER);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([HEADER, nonce, body, cipher.getAuthTag()]);
}

/** Decrypts a sealed value; throws if it was sealed under another key, truncated or modified in any byte. */
export function open(key: Buffer, sealed: Buffer): string {
  assertKey(key);
  return decrypt(key, sealed);
}

/**
 * `open` under one key with its latest openings remembered by the sealed bytes, for a caller that opens the same
 * few values again and again (the webhook worker: an endpoint's secrets on every delivery), since a decipher's
 * set-up is most of an opening. Under one key a sealed value opens to one plaintext, so the answer is the same;
 * failures are not remembered. The plaintexts stay in memory, so other callers (two-factor seeds) use `open`.
 */
export function createOpener(key: Buffer, max = 1000): (sealed: Buffer) => string {
  assertKey(key);
  const memo = new Map<string, string>();
  return (sealed) => {
    const id = sealed.toString('latin1');
    const known = memo.get(id);
    if (known !== undefined) return known;
    const plaintext = decrypt(key, sealed);
    memo.set(id, plaintext);
    if (memo.size > max) memo.delete(memo.keys().next().value as string);
    return plaintext;
  };
}

function decrypt(key: Buffer, sealed: Buffer): string {
  if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES) throw new Error('sealed value is too short');
  if (sealed[0] !== VERSION) throw new Error(`sealed value has unknown version ${sealed[0]}`);
  const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(1 + NONCE_BYTES, sealed.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(HEADER);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed value failed authentication (wrong key or tampered)');
  }
}

/**
 * Parses TASMAN_SECRET_KEY: 32 bytes as 64 hex characters, or as base64 / base64url (padding optional).
 * Hex is tried first because 64 hex characters are also valid base64 (of 48 bytes), which would then fail.
 */
export function parseKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new Error(
    'TASMAN_SECRET_KEY must be 32 bytes written as 64 hex characters or base64 (44 characters); ' +
      'generate one with: openssl rand -hex 32',
  );
}

const KEY_FILE = 'secret.key';

/**
 * The service key: from TASMAN_SECRET_KEY when set; otherwise `<dataDir>/secret.key`, created (mode 0600, hex)
 * on first run so the embedded-database setup needs no configuration. Without either there is nowhere safe to
 * keep a key, and a key generated per process would make every stored secret unreadable after a restart.
 */
export function loadOrCreateKey(opts: { envValue?: string; dataDir?: string }): Buffer {
  if (opts.envValue !== undefined && opts.envValue.trim() !== '') return parseKey(opts.envValue);
  if (!opts.dataDir) {
    throw new Error(
      'TASMAN_SECRET_KEY is not set and there is no DATA_DIR to keep a generated key in; ' +
        'set TASMAN_SECRET_KEY to 64 hex characters (openssl rand -hex 32)',
    );
  }
  const path = join(opts.dataDir, KEY_FILE);
  let existing: string | null = null;
  try {
    existing = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (existing !== null) {
    try {
      return parseKey(existing);
    } catch {
      throw new StartupError(`${path} does not hold a valid key (64 hex characters); restore it or remove it to start over`);
    }
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // Write a temporary file, then link it into place: link() fails atomically if the key file appeared meanwhile
  // (two processes starting at once), and a reader never sees a half-written key.
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    // The mode argument is filtered by the umask; chmod makes 0600 exact.
    chmodSync(tmp, 0o600);
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKey(opts);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return key;
}
