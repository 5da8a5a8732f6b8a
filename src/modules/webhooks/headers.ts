import { signBody, standardSignature } from './signature.ts';

/** The document's header prefix and the one the official client libraries read (docs/api-contract.md). */
export const DEFAULT_HEADER_PREFIXES: readonly string[] = ['X-Service', 'X-Texto'];

/**
 * Every header of one webhook attempt:
 * - `<prefix>-Event`, `<prefix>-Delivery`, and (when signing is on) `<prefix>-Signature: sha256=<hex>` with the
 *   current secret, once per configured prefix, all with the same values;
 * - Standard Webhooks: `webhook-id` (the delivery id), `webhook-timestamp` (this attempt, in seconds) and
 *   `webhook-signature` with one `v1,` signature per secret (current first, then the previous one for 24 hours
 *   after a rotation).
 * `secrets` is empty when the endpoint has no secret: then nothing is signed and no signature header is sent.
 */
export function webhookHeaders(input: {
  prefixes: readonly string[];
  event: string;
  id: string;
  body: string;
  timestampSec: number;
  secrets: readonly string[];
}): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const documented = input.secrets.length > 0 ? signBody(input.secrets[0]!, input.body) : null;
  for (const prefix of input.prefixes) {
    headers[`${prefix}-Event`] = input.event;
    headers[`${prefix}-Delivery`] = input.id;
    if (documented) headers[`${prefix}-Signature`] = documented;
  }
  headers['webhook-id'] = input.id;
  headers['webhook-timestamp'] = String(input.timestampSec);
  if (input.secrets.length > 0) headers['webhook-signature'] = standardSignature(input.secrets, input.id, input.timestampSec, input.body);
  return headers;
}
