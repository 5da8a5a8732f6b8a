import { createServer } from 'node:net';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, staticLookup } from '../../../test/support/webhook-receiver.ts';
import type { Receiver, ReceiverOptions } from '../../../test/support/webhook-receiver.ts';
import { createWebhookSender, isDelivered, isSuccess } from './http-sender.ts';
import type { WebhookSender } from './http-sender.ts';
import { signBody } from './signature.ts';
import { checkWebhookUrl } from './url-guard.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(respond?: ReceiverOptions['respond']): Promise<Receiver> {
  const r = await startReceiver({ respond });
  cleanups.push(() => r.close());
  return r;
}

function sender(opts: Partial<Parameters<typeof createWebhookSender>[0]> = {}): WebhookSender {
  const s = createWebhookSender({ timeoutMs: 5000, allowPrivate: true, ...opts });
  cleanups.push(() => s.close());
  return s;
}

const body = '{"event":"message.inbound","body":"Kia ora — café 👋"}';
const headers = { 'X-Service-Event': 'message.inbound', 'X-Service-Delivery': '0190a1b2-0000-7000-8000-000000000001' };

describe('isSuccess', () => {
  it.each([[200, true], [201, true], [204, true], [299, true], [199, false], [300, false], [302, false],
    [404, false], [500, false], [null, false]])('%s → %s', (code, expected) => {
    expect(isSuccess(code)).toBe(expected);
  });
});

describe('webhook sender (allowPrivate, loopback receiver)', () => {
  it('delivers on 2xx with the exact body bytes and headers', async () => {
    const r = await receiver(() => ({ status: 204 }));
    const s = sender();
    const secret = 'whsec_abc';
    const result = await s.post(`${r.url}/hook?x=1`, body, { ...headers, 'X-Service-Signature': signBody(secret, body) });
    expect(result).toMatchObject({ statusCode: 204, error: null });
    expect(isDelivered(result)).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [req] = await r.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hook?x=1');
    expect(req!.rawBody.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-service-event']).toBe('message.inbound');
    expect(req!.headers['x-service-delivery']).toBe(headers['X-Service-Delivery']);
    expect(await octokitVerify(secret, req!.body, req!.headers['x-service-signature'] as string)).toBe(true);
  });

  it('reports 500 as a failed attempt without error text', async () => {
    const r = await receiver(() => ({ status: 500, body: 'boom' }));
    const result = await sender().post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: 500, error: null });
    expect(isDelivered(result)).toBe(false);
  });

  it('reports 404', async () => {
    const r = await receiver(() => ({ status: 404 }));
    const result = await sender().post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: 404, error: null });
    expect(isDelivered(result)).toBe(false);
  });

  it('does not follow a 302; the redirect target sees nothing', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` } }));
    const result = await sender().post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: 302, error: 'redirect not followed' });
    expect(isDelivered(result)).toBe(false);
    // post() resolves only once the exchanges it made have ended, so a (wrongly) followed redirect has reached the target by now.
    expect(target.requests).toHaveLength(0);
    expect(r.requests).toHaveLength(1);
  });

  it('times out when the receiver is slower than the deadline', async () => {
    const r = await receiver(() => ({ status: 200, delayMs: 3000 }));
    const result = await sender({ timeoutMs: 200 }).post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(isDelivered(result)).toBe(false);
  });

  /** A raw TCP server answering the first request with `answer(socket)`; its URL. */
  async function rawServer(answer: (sock: Socket) => void): Promise<string> {
    const server = createServer((sock) => {
      sock.once('data', () => answer(sock));
      sock.on('error', () => {});
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    cleanups.push(() => new Promise((res) => server.close(() => res())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }
  // A 200 promising 100 bytes of body and sending 7.
  const PARTIAL_200 = 'HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial';

  it('times out when headers arrive but the body drags on, keeping the status', async () => {
    // Headers, then a stall mid-body.
    const url = await rawServer((sock) => sock.write(PARTIAL_200));
    const result = await sender({ timeoutMs: 300 }).post(url, body, headers);
    expect(result).toMatchObject({ statusCode: 200, error: 'timeout' });
    expect(isDelivered(result)).toBe(false);
  });

  it('fails a 2xx whose body the receiver cuts short, keeping the status', async () => {
    // Headers, part of the body, then the connection closes: the response was not read in full.
    const url = await rawServer((sock) => sock.end(PARTIAL_200));
    const result = await sender().post(url, body, headers);
    expect(result).toMatchObject({ statusCode: 200 });
    expect(result.error).not.toBeNull();
    expect(isDelivered(result)).toBe(false);
  });

  it('reports connection refused without throwing', async () => {
    const r = await startReceiver();
    const url = r.url; // a port that was just free and is now closed
    await r.close();
    const result = await sender().post(url, body, headers);
    expect(result).toMatchObject({ statusCode: null, error: 'connection refused' });
  });

  it('reports an unresolvable host', async () => {
    const result = await sender({ lookup: staticLookup({}) }).post('http://nowhere.test/', body, headers);
    expect(result).toMatchObject({ statusCode: null, error: 'host not found' });
  });

  it('uses the injected lookup to reach a hostname', async () => {
    const r = await receiver();
    const s = sender({ lookup: staticLookup({ 'hooks.test': '127.0.0.1' }) });
    const result = await s.post(`http://hooks.test:${r.port}/x`, body, headers);
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect((await r.waitFor(1))[0]!.headers.host).toBe(`hooks.test:${r.port}`);
  });

  it('reads and discards a large response body, still reporting the status', async () => {
    const r = await receiver(() => ({ status: 200, body: 'x'.repeat(1024 * 1024) }));
    const result = await sender({ maxResponseBytes: 1024 }).post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: 200, error: null });
  });

  it('reuses one sender for many posts', async () => {
    const r = await receiver();
    const s = sender();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.post(`${r.url}/${i}`, body, headers)));
    expect(results.every(isDelivered)).toBe(true);
    expect(r.requests).toHaveLength(20);
  });

  it('rejects malformed URLs as error text', async () => {
    expect(await sender().post('not a url', body, headers)).toMatchObject({ statusCode: null, error: 'invalid url' });
    expect(await sender().post('ftp://127.0.0.1/', body, headers)).toMatchObject({ error: 'invalid url' });
  });

  it('sends URL credentials as basic auth', async () => {
    const r = await receiver();
    const url = r.url.replace('http://', 'http://user:p%40ss@');
    expect(await sender().post(url, body, headers)).toMatchObject({ statusCode: 200 });
    const [req] = await r.waitFor(1);
    expect(req!.headers.authorization).toBe('Basic ' + Buffer.from('user:p@ss').toString('base64'));
  });
});

describe('webhook sender in production mode (allowPrivate=false)', () => {
  it('refuses http://', async () => {
    const r = await receiver();
    const result = await sender({ allowPrivate: false }).post(r.url, body, headers);
    expect(result).toMatchObject({ statusCode: null, error: 'https required' });
    expect(r.requests).toHaveLength(0);
  });

  it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '10.0.0.1', '169.254.169.254'])(
    'refuses the IP literal %s before connecting',
    async (host) => {
      const result = await sender({ allowPrivate: false }).post(`https://${host}:1/`, body, headers);
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(/^refused non-public address/);
    },
  );

  it('refuses a hostname that resolves to 127.0.0.1; the receiver sees nothing', async () => {
    const r = await receiver();
    const s = sender({ allowPrivate: false, lookup: staticLookup({ 'hooks.example.com': '127.0.0.1' }) });
    const result = await s.post(`https://hooks.example.com:${r.port}/`, body, headers);
    expect(result).toMatchObject({ statusCode: null });
    expect(result.error).toBe('refused hooks.example.com: resolves to non-public address 127.0.0.1');
    expect(r.requests).toHaveLength(0);
  });

  it('refuses when any resolved address is private', async () => {
    const lookup = staticLookup({ 'hooks.example.com': ['93.184.216.34', '127.0.0.1'] });
    const result = await sender({ allowPrivate: false, lookup }).post('https://hooks.example.com/', body, headers);
    expect(result.error).toMatch(/non-public address 127\.0\.0\.1/);
  });

  it('closes the DNS-rebinding gap: a check that passed earlier does not let the connection through', async () => {
    const r = await receiver();
    let calls = 0;
    // First answer public (when the URL is saved), later answers loopback (when the webhook is sent).
    const rebinding: LookupFunction = (hostname, options, callback) => {
      calls += 1;
      const address = calls === 1 ? '93.184.216.34' : '127.0.0.1';
      staticLookup({ [hostname]: address })(hostname, options, callback);
    };
    const url = `https://rebind.example.com:${r.port}/`;
    expect(await checkWebhookUrl(url, { allowPrivate: false, lookup: rebinding })).toEqual({ ok: true });
    const result = await sender({ allowPrivate: false, lookup: rebinding }).post(url, body, headers);
    expect(result.error).toMatch(/non-public address 127\.0\.0\.1/);
    expect(r.requests).toHaveLength(0);
  });
});
