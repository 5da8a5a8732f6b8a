/**
 * How many deliveries of one endpoint (account and event) may be open at once in this process. Every endpoint
 * starts at `base` (16, the isolation bound of README.md). An endpoint that answers fast while it is busy (at least
 * three quarters of its cap open) earns one more slot per such answer, up to `max`: one account's `message.dlr`
 * stream all goes to one endpoint, and a fast receiver should not cap that account's end-to-end rate at 16 round
 * trips at a time. One slot per answer of a busy window doubles the cap about once per round trip, as a TCP window
 * grows in slow start. Busy is three quarters, not the whole cap, because a backlogged endpoint is refilled a
 * quarter cap at a time (claim-scan.ts claimOnAnswer): its answers come with between three quarters and all of its
 * cap open, and counting only those at the full cap grew it by about one slot per refill, so that after each
 * halving it took a dozen round trips to grow back.
 *
 * An error or non-2xx (a timeout included) puts it straight back to `base`; a slow answer halves its cap (never
 * below `base`), as TCP does with its window: under load one late answer among hundreds is the machine's hiccup,
 * not a slow receiver, and going back to `base` for it held one account's webhooks at 16 at a time (bench/kannel.ts,
 * one key: receipt → webhook p50 2.6 s). So a dead endpoint holds `base` slots as before, and one that turns slow
 * while grown holds at most `max` until its first slow answer comes back, then half of that at each further slow
 * answer.
 */
export interface EndpointCapOptions {
  base: number;
  max: number;
  /** An answer faster than this (and delivered) counts as fast. */
  fastMs: number;
}

/** Whether an endpoint with `open` deliveries open (the answering one included) is using its cap. */
export const busy = (open: number, cap: number): boolean => open >= cap - Math.floor(cap / 4);

export function createEndpointCaps(options: EndpointCapOptions) {
  const grown = new Map<string, number>();
  return {
    cap: (key: string): number => grown.get(key) ?? options.base,
    /** Endpoints whose cap is above `base` (the claim must be told their room even with nothing in flight). */
    grown: (): ReadonlyMap<string, number> => grown,
    /**
     * One answer of the endpoint: `openBefore` is how many of its deliveries were open, this one included, when it
     * answered.
     */
    answered(key: string, answer: { delivered: boolean; durationMs: number; openBefore: number }): void {
      const cap = grown.get(key) ?? options.base;
      if (!answer.delivered) {
        grown.delete(key);
        return;
      }
      if (answer.durationMs >= options.fastMs) {
        const halved = Math.floor(cap / 2);
        if (halved <= options.base) grown.delete(key);
        else grown.set(key, halved);
        return;
      }
      if (cap >= options.max || !busy(answer.openBefore, cap)) return;
      // Bounded: an entry per endpoint that grew; endpoints that went quiet are forgotten at this size.
      if (grown.size >= 10_000 && !grown.has(key)) grown.clear();
      grown.set(key, cap + 1);
    },
  };
}

export type EndpointCaps = ReturnType<typeof createEndpointCaps>;
