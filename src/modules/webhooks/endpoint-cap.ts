/**
 * How many deliveries of one endpoint (account and event) may be open at once in this process. Every endpoint
 * starts at `base` (16, the isolation bound of README.md). An endpoint that keeps answering fast while it uses its
 * whole cap earns one more slot per such answer, up to `max`: one account's `message.dlr` stream all goes to one
 * endpoint, and a fast receiver should not cap that account's end-to-end rate at 16 round trips at a time. Any
 * slow answer, error or non-2xx puts it straight back to `base`, so a slow or dead endpoint holds `base` slots as
 * before; one that turns slow while grown holds at most `max` until its first slow answer (or timeout) comes back.
 */
export interface EndpointCapOptions {
  base: number;
  max: number;
  /** An answer faster than this (and delivered) counts as fast. */
  fastMs: number;
}

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
      if (!answer.delivered || answer.durationMs >= options.fastMs) {
        grown.delete(key);
        return;
      }
      if (answer.openBefore < cap || cap >= options.max) return;
      // Bounded: an entry per endpoint that grew; endpoints that went quiet are forgotten at this size.
      if (grown.size >= 10_000 && !grown.has(key)) grown.clear();
      grown.set(key, cap + 1);
    },
  };
}

export type EndpointCaps = ReturnType<typeof createEndpointCaps>;
