import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { staticLookup } from '../../../test/support/webhook-receiver.ts';
import { checkWebhookUrl, isPublicAddress } from './url-guard.ts';

describe('isPublicAddress', () => {
  it.each([
    // loopback, private, link-local, metadata
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '169.254.0.1', '169.254.169.254',
    // CGNAT, this-network, multicast, broadcast, reserved
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.255', '255.255.255.255',
    '240.0.0.1',
    // documentation, benchmarking, IETF
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '198.19.255.255', '192.0.0.8', '192.88.99.1',
    // IPv6 special
    '::', '::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'ff0e::1',
    'fec0::1', '100::1', '2001:db8::1', '2001::1', '2001:0:4136:e378::1', '3fff::1', '5f00::1', '::1.2.3.4',
    // IPv4 embedded in IPv6, judged as IPv4
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0.0.0.0',
    '64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254', '2002:7f00:1::1', '2002:a9fe:a9fe::',
    '64:ff9b:1::1',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1', '8.8.8.8', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1',
    '169.253.255.255', '198.17.255.255', '198.20.0.1', '223.255.255.255', '11.0.0.1', '126.255.255.255',
    '128.0.0.1', '192.167.255.255', '192.169.0.1',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450::1', '2400:cb00::1',
    '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1',
  ])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(['', 'localhost', 'example.com', '127.1', '1.2.3', '256.0.0.1', '[::1]', '::ffff:', 'fe80::1%'])(
    'refuses the non-address %j',
    (s) => {
      expect(isPublicAddress(s)).toBe(false);
    },
  );

  it('judges ::ffff:a.b.c.d and 64:ff9b::a.b.c.d exactly as a.b.c.d', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isPublicAddress(`::ffff:${v4}`)).toBe(isPublicAddress(v4));
        expect(isPublicAddress(`64:ff9b::${v4}`)).toBe(isPublicAddress(v4));
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), (s) => {
        expect(typeof isPublicAddress(s)).toBe('boolean');
      }),
    );
  });

  it('refuses every address in 127/8, 10/8 and 169.254/16', () => {
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c) => {
        expect(isPublicAddress(`127.${a}.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`10.${a}.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`169.254.${b}.${c}`)).toBe(false);
      }),
    );
  });
});

describe('checkWebhookUrl', () => {
  const lookup = staticLookup({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'evil.example.com': '127.0.0.1',
    'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
    'metadata.example.com': '169.254.169.254',
    'v6loop.example.com': '::1',
  });
  const prod = { allowPrivate: false, lookup };
  const dev = { allowPrivate: true, lookup };

  it('accepts an https URL resolving only to public addresses', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/tasman?x=1', prod)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://8.8.8.8:8443/hook', prod)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/hook', prod)).toEqual({ ok: true });
  });

  it('allows credentials in the URL', async () => {
    expect(await checkWebhookUrl('https://user:pass@hooks.example.com/', prod)).toEqual({ ok: true });
  });

  it.each([
    'https://127.0.0.1/',
    'https://10.0.0.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fe80::1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://2130706433/', // 127.0.0.1 as one decimal number
    'https://0x7f.1/', // 127.0.0.1 in hex shorthand
    'https://0177.0.0.1/', // octal
    'https://evil.example.com/',
    'https://mixed.example.com/',
    'https://metadata.example.com/',
    'https://v6loop.example.com/',
  ])('refuses %s as private_address', async (url) => {
    const r = await checkWebhookUrl(url, prod);
    expect(r).toMatchObject({ ok: false, code: 'private_address' });
  });

  it('names the offending address', async () => {
    const r = await checkWebhookUrl('https://mixed.example.com/', prod);
    expect(r.ok || r.reason).toContain('10.0.0.5');
  });

  it('refuses a host that does not resolve', async () => {
    const r = await checkWebhookUrl('https://nowhere.example.com/', prod);
    expect(r).toMatchObject({ ok: false, code: 'private_address' });
    expect(r.ok || r.reason).toMatch(/ENOTFOUND/);
  });

  it('requires https in production mode', async () => {
    expect(await checkWebhookUrl('http://hooks.example.com/', prod)).toMatchObject({ ok: false, code: 'https_required' });
  });

  it.each(['', 'not a url', '/relative/path', 'ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)',
    'mailto:a@b.c', 'https://'])('refuses %j as invalid_url', async (url) => {
    expect(await checkWebhookUrl(url, prod)).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(await checkWebhookUrl(url, dev)).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it('allows http and private addresses when allowPrivate is set, without resolving', async () => {
    for (const url of ['http://127.0.0.1:3000/hook', 'https://[::1]/', 'http://evil.example.com/', 'http://nowhere.example.com/']) {
      expect(await checkWebhookUrl(url, dev)).toEqual({ ok: true });
    }
  });

  it('uses the system resolver by default (localhost is loopback)', async () => {
    expect(await checkWebhookUrl('https://localhost/', { allowPrivate: false })).toMatchObject({
      ok: false,
      code: 'private_address',
    });
  });
});
