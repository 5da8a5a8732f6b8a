import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { ReceivedRequest } from './webhook-receiver.ts';

/**
 * What a client writes from the interface document's "Signature verification" section (and what the official
 * libraries' READMEs show for `X-Texto-Signature`): HMAC-SHA256 of the raw bytes with the secret as given,
 * hex, compared in constant time after the `sha256=` prefix.
 */
export function clientVerify(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(header.slice('sha256='.length));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Every event verified three ways: the document's `X-Service-Signature` (an independent implementation,
 * @octokit/webhooks-methods), `X-Texto-Signature` with the client's helper above, and Standard Webhooks'
 * headers with the npm `standardwebhooks` package. Also checks the two prefixes carry the same values.
 */
export async function expectVerifiedEveryWay(req: ReceivedRequest, secret: string): Promise<void> {
  const h = req.headers;
  expect(await octokitVerify(secret, req.body, h['x-service-signature'] as string)).toBe(true);
  expect(clientVerify(secret, req.rawBody, h['x-texto-signature'])).toBe(true);
  expect(h['x-texto-signature']).toBe(h['x-service-signature']);
  expect(h['x-texto-event']).toBe(h['x-service-event']);
  expect(h['x-texto-delivery']).toBe(h['x-service-delivery']);
  expect(h['webhook-id']).toBe(h['x-service-delivery']);
  const std = new Webhook(secret).verify(req.rawBody.toString('utf8'), {
    'webhook-id': h['webhook-id'] as string,
    'webhook-timestamp': h['webhook-timestamp'] as string,
    'webhook-signature': h['webhook-signature'] as string,
  });
  expect(std).toEqual(JSON.parse(req.body));
}

/** Whether the Standard Webhooks headers verify with this secret (rotation tests). */
export function standardVerifies(req: ReceivedRequest, secret: string): boolean {
  try {
    new Webhook(secret).verify(req.rawBody.toString('utf8'), {
      'webhook-id': req.headers['webhook-id'] as string,
      'webhook-timestamp': req.headers['webhook-timestamp'] as string,
      'webhook-signature': req.headers['webhook-signature'] as string,
    });
    return true;
  } catch {
    return false;
  }
}
