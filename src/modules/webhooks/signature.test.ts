import { createHmac } from 'node:crypto';
import { verify as octokitVerify, sign as octokitSign } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateSecret, signBody, standardSignature, verifySignature } from './signature.ts';

describe('signBody', () => {
  it('matches a known HMAC-SHA256 vector (RFC 4231 test case 2)', () => {
    const sig = signBody('Jefe', 'what do ya want for nothing?');
    expect(sig).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is lower-case hex with the sha256= prefix', () => {
    expect(signBody('s', '{}')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('signs a string and its UTF-8 bytes identically', () => {
    const body = '{"body":"Kia ora — café 👋"}';
    expect(signBody('k', body)).toBe(signBody('k', Buffer.from(body, 'utf8')));
  });

  // Octokit refuses an empty payload, hence minLength 1 below; bodies are always JSON objects anyway.
  it('is verified by an independent implementation (@octokit/webhooks-methods)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1 }), async (secret, body) => {
        expect(await octokitVerify(secret, body, signBody(secret, body))).toBe(true);
        expect(await octokitSign(secret, body)).toBe(signBody(secret, body));
      }),
      { numRuns: 200 },
    );
  });

  it('signs the raw bytes, not re-serialised JSON', async () => {
    const raw = '{ "a":1,  "b" : [1,2] }';
    const reserialised = JSON.stringify(JSON.parse(raw));
    const secret = generateSecret();
    expect(await octokitVerify(secret, raw, signBody(secret, raw))).toBe(true);
    expect(await octokitVerify(secret, reserialised, signBody(secret, raw))).toBe(false);
  });
});

describe('verifySignature', () => {
  const secret = 'whsec_test';
  const body = '{"event":"message.inbound"}';
  const good = signBody(secret, body);

  it('accepts the correct signature, also given Buffer bodies and upper-case hex', () => {
    expect(verifySignature(secret, body, good)).toBe(true);
    expect(verifySignature(secret, Buffer.from(body), good)).toBe(true);
    expect(verifySignature(secret, body, 'sha256=' + good.slice(7).toUpperCase())).toBe(true);
  });

  it.each([
    ['missing header', undefined],
    ['null header', null],
    ['empty header', ''],
    ['no prefix', good.slice(7)],
    ['wrong algorithm prefix', 'sha1=' + good.slice(7)],
    ['truncated', good.slice(0, -2)],
    ['extra characters', good + '00'],
    ['non-hex characters', good.slice(0, -1) + 'z'],
    ['one digit changed', good.slice(0, -1) + (good.endsWith('0') ? '1' : '0')],
  ])('rejects %s', (_name, header) => {
    expect(verifySignature(secret, body, header)).toBe(false);
  });

  it('rejects a different secret or body', () => {
    expect(verifySignature('other', body, good)).toBe(false);
    expect(verifySignature(secret, body + ' ', good)).toBe(false);
  });

  it('accepts signatures made by @octokit/webhooks-methods', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), async (s, b) => {
        expect(verifySignature(s, b, await octokitSign(s, b))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('round-trips and detects any single-byte change', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), (bytes, pos) => {
        const buf = Buffer.from(bytes);
        const sig = signBody(secret, buf);
        expect(verifySignature(secret, buf, sig)).toBe(true);
        const changed = Buffer.from(buf);
        const i = pos % changed.length;
        changed[i] = changed[i]! ^ 0x01;
        expect(verifySignature(secret, changed, sig)).toBe(false);
      }),
    );
  });
});

describe('generateSecret', () => {
  it('is whsec_ plus 33 random bytes in standard base64 without padding', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{44}$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(33);
  });

  it('does not repeat', () => {
    const seen = new Set(Array.from({ length: 1000 }, generateSecret));
    expect(seen.size).toBe(1000);
  });

  it('is usable directly as the HMAC key', () => {
    const s = generateSecret();
    const manual = createHmac('sha256', s).update('x').digest('hex');
    expect(signBody(s, 'x')).toBe('sha256=' + manual);
  });
});

describe('standardSignature (Standard Webhooks)', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('is verified by the standardwebhooks package, for any body', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const secret = generateSecret();
      const body = JSON.stringify({ text });
      const ts = now();
      const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': standardSignature([secret], 'msg_1', ts, body) };
      expect(new Webhook(secret).verify(body, headers)).toEqual({ text });
    }), { numRuns: 20 });
  });

  it('carries one signature per secret, each accepted on its own', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const ts = now();
    const header = standardSignature([current, previous], 'id-1', ts, '{}');
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(() => new Webhook(secret).verify('{}', { 'webhook-id': 'id-1', 'webhook-timestamp': String(ts), 'webhook-signature': header })).not.toThrow();
    }
    expect(() => new Webhook(generateSecret()).verify('{}', { 'webhook-id': 'id-1', 'webhook-timestamp': String(ts), 'webhook-signature': header })).toThrow();
  });

  it('binds the id and the timestamp (a replayed body under another id or time fails)', () => {
    const secret = generateSecret();
    const ts = now();
    const header = standardSignature([secret], 'id-1', ts, '{}');
    const wh = new Webhook(secret);
    expect(() => wh.verify('{}', { 'webhook-id': 'id-2', 'webhook-timestamp': String(ts), 'webhook-signature': header })).toThrow();
    expect(() => wh.verify('{}', { 'webhook-id': 'id-1', 'webhook-timestamp': String(ts + 1), 'webhook-signature': header })).toThrow();
  });

  it('accepts secrets made before this format (base64url)', () => {
    const legacy = 'whsec_' + Buffer.alloc(32, 0xfb).toString('base64url');
    const ts = now();
    const header = standardSignature([legacy], 'id', ts, 'x');
    const expected = createHmac('sha256', Buffer.alloc(32, 0xfb)).update(`id.${ts}.x`).digest('base64');
    expect(header).toBe(`v1,${expected}`);
  });
});
