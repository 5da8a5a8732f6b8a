import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpener, loadOrCreateKey, open, parseKey, seal } from './secret-box.ts';

const key = randomBytes(32);

describe('seal / open', () => {
  it('round-trips any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(open(key, seal(key, text))).toBe(text);
      }),
    );
  });

  it('has the documented layout: version, 12-byte nonce, ciphertext, 16-byte tag', () => {
    const sealed = seal(key, 'whsec_hello');
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBe(1 + 12 + Buffer.byteLength('whsec_hello') + 16);
  });

  it('uses a fresh nonce each time', () => {
    const a = seal(key, 'same');
    const b = seal(key, 'same');
    expect(a.equals(b)).toBe(false);
    expect(a.subarray(1, 13).equals(b.subarray(1, 13))).toBe(false);
  });

  it('detects a flipped bit anywhere', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.integer({ min: 0, max: 7 }), (text, pos, bit) => {
        const sealed = seal(key, text);
        const i = pos % sealed.length;
        sealed[i] = sealed[i]! ^ (1 << bit);
        expect(() => open(key, sealed)).toThrow();
      }),
    );
  });

  it('detects truncation and extension', () => {
    const sealed = seal(key, 'secret value');
    expect(() => open(key, sealed.subarray(0, sealed.length - 1))).toThrow(/authentication/);
    expect(() => open(key, Buffer.concat([sealed, Buffer.from([0])]))).toThrow(/authentication/);
    expect(() => open(key, sealed.subarray(0, 20))).toThrow(/too short/);
    expect(() => open(key, Buffer.alloc(0))).toThrow(/too short/);
  });

  it('remembers openings by the sealed bytes: the same value opens alike again, a changed copy still fails', () => {
    const sealed = seal(key, 'whsec_remembered');
    const opener = createOpener(key);
    expect(opener(sealed)).toBe('whsec_remembered');
    expect(opener(Buffer.from(sealed))).toBe('whsec_remembered');
    const changed = Buffer.from(sealed);
    changed[changed.length - 1] = changed[changed.length - 1]! ^ 1;
    expect(() => opener(changed)).toThrow(/authentication/);
    expect(() => open(randomBytes(32), sealed)).toThrow(/authentication/);
  });

  it('refuses another key and an unknown version', () => {
    const sealed = seal(key, 'secret');
    expect(() => open(randomBytes(32), sealed)).toThrow(/authentication/);
    const relabelled = Buffer.from(sealed);
    relabelled[0] = 2;
    expect(() => open(key, relabelled)).toThrow(/version/);
  });

  it('requires a 32-byte key', () => {
    expect(() => seal(randomBytes(16), 'x')).toThrow(/32 bytes/);
    expect(() => open(randomBytes(31), seal(key, 'x'))).toThrow(/32 bytes/);
  });
});

describe('parseKey', () => {
  const raw = randomBytes(32);
  it.each([
    ['hex', raw.toString('hex')],
    ['upper-case hex', raw.toString('hex').toUpperCase()],
    ['base64', raw.toString('base64')],
    ['base64 without padding', raw.toString('base64').replace(/=$/, '')],
    ['base64url', raw.toString('base64url')],
    ['hex with whitespace', `  ${raw.toString('hex')}\n`],
  ])('accepts %s', (_name, text) => {
    expect(parseKey(text).equals(raw)).toBe(true);
  });

  it.each(['', 'abc', '0'.repeat(63), '0'.repeat(65), randomBytes(16).toString('hex'), randomBytes(31).toString('base64'),
    randomBytes(33).toString('base64'), 'g'.repeat(64)])('rejects %j with a clear message', (text) => {
    expect(() => parseKey(text)).toThrow(/TASMAN_SECRET_KEY must be 32 bytes/);
  });
});

describe('loadOrCreateKey', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'tasman-key-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('prefers the environment value', () => {
    const raw = randomBytes(32);
    const dir = tempDir();
    expect(loadOrCreateKey({ envValue: raw.toString('hex'), dataDir: dir }).equals(raw)).toBe(true);
    expect(() => statSync(join(dir, 'secret.key'))).toThrow();
  });

  it('rejects a malformed environment value rather than falling back', () => {
    expect(() => loadOrCreateKey({ envValue: 'nope', dataDir: tempDir() })).toThrow(/TASMAN_SECRET_KEY/);
  });

  it('creates <dataDir>/secret.key with mode 0600 and reuses it', () => {
    const dir = tempDir();
    const first = loadOrCreateKey({ dataDir: dir });
    expect(first).toHaveLength(32);
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadOrCreateKey({ dataDir: dir }).equals(first)).toBe(true);
    expect(loadOrCreateKey({ envValue: '', dataDir: dir }).equals(first)).toBe(true);
    // A value sealed under the first key opens with the reloaded one (survives a restart).
    expect(open(loadOrCreateKey({ dataDir: dir }), seal(first, 'kept'))).toBe('kept');
  });

  it('creates a missing data directory', () => {
    const dir = join(tempDir(), 'nested', 'data');
    expect(loadOrCreateKey({ dataDir: dir })).toHaveLength(32);
  });

  it('refuses a corrupt key file instead of replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.key'), 'garbage');
    expect(() => loadOrCreateKey({ dataDir: dir })).toThrow(/does not hold a valid key/);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe('garbage');
  });

  it('throws a clear error with neither a key nor a data directory', () => {
    expect(() => loadOrCreateKey({})).toThrow(/TASMAN_SECRET_KEY is not set/);
    expect(() => loadOrCreateKey({ envValue: '  ' })).toThrow(/TASMAN_SECRET_KEY is not set/);
  });
});
