import type { Carrier, SubmitResult } from '../../carrier/carrier.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';

/**
 * The carrier link as the dispatcher sees it with the SMPP server on: each submit carries the validity its
 * customer's submit_sm gave it (smpp_validity), looked up for the submits in flight together in one statement.
 * A message whose validity has passed is not sent: the submit is refused as temporary, and the SMPP server's
 * expiry sweep (expireByValidity) ends it `expired` and refunds it.
 */
export function withCustomerValidity(link: Carrier, deps: { validityOf(ids: string[]): Promise<Map<string, Date>>; now?: () => Date }): Carrier {
  const now = deps.now ?? (() => new Date());
  const lookups = createBatcher<string, Date | null>({
    maxSize: 500,
    // One at a time, so lookups gather; a second only beside one that is slow.
    maxConcurrent: 2,
    openAfterMs: 50,
    run: async (ids) => {
      const found = await deps.validityOf(ids);
      return ids.map((id) => found.get(id) ?? null);
    },
  });
  return {
    start: (handlers) => link.start(handlers),
    async submit(request): Promise<SubmitResult> {
      const validUntil = await lookups.submit(request.id);
      if (validUntil === null) return link.submit(request);
      if (validUntil.getTime() <= now().getTime()) {
        return { ok: false, permanent: false, errorCode: 'validity_expired', message: 'the validity period the customer gave the message has passed' };
      }
      return link.submit({ ...request, validUntil });
    },
    health: () => link.health(),
    stop: () => link.stop(),
  };
}
