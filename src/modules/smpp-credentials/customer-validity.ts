import type { Carrier, SubmitResult } from '../../carrier/carrier.ts';

/**
 * The carrier link as the dispatcher sees it: a submit carries the validity its customer's submit_sm gave it (the
 * claim reads it from smpp_validity for a message flagged with one, decision 0090). A message whose validity has
 * passed is not sent: the submit is refused as temporary, and the SMPP server's expiry sweep (expireByValidity)
 * ends it `expired` and refunds it.
 */
export function withCustomerValidity(link: Carrier, deps: { now?: () => Date } = {}): Carrier {
  const now = deps.now ?? (() => new Date());
  return {
    start: (handlers) => link.start(handlers),
    async submit(request): Promise<SubmitResult> {
      if (request.validUntil && request.validUntil.getTime() <= now().getTime()) {
        return { ok: false, permanent: false, errorCode: 'validity_expired', message: 'the validity period the customer gave the message has passed' };
      }
      return link.submit(request);
    },
    health: () => link.health(),
    stop: () => link.stop(),
  };
}
