// Concatenation references for outbound multi-part messages. A handset joins parts by (originator, reference),
// so two long messages in flight to one recipient must not share a reference: GSM 03.40 asks for a modulo-256
// counter (65,536 with the 16-bit element). A hash of the message id collided one time in 256.
import type { ConcatRefBits } from './segment.ts';

export interface ConcatRefs {
  /** The reference for a message to `destination`; the same message (a retry) gets the same one again. */
  refFor(messageId: string, destination: string): number;
}

/**
 * One counter per destination, starting at a random value (two processes sending to one number then rarely
 * meet), so 256 consecutive long messages to one number get 256 different references. Both maps are bounded:
 * the oldest destinations and messages are forgotten first, long after their parts were delivered.
 */
export function createConcatRefs(bits: ConcatRefBits = 8, maxEntries = 100_000, random: () => number = Math.random): ConcatRefs {
  const modulo = bits === 16 ? 0x10000 : 0x100;
  const last = new Map<string, number>();
  const byMessage = new Map<string, number>();
  const remember = (map: Map<string, number>, key: string, value: number): void => {
    map.delete(key);
    map.set(key, value);
    if (map.size > maxEntries) map.delete(map.keys().next().value as string);
  };
  return {
    refFor(messageId, destination) {
      const known = byMessage.get(messageId);
      if (known !== undefined) return known;
      const previous = last.get(destination);
      const ref = previous === undefined ? Math.floor(random() * modulo) : (previous + 1) % modulo;
      remember(last, destination, ref);
      remember(byMessage, messageId, ref);
      return ref;
    },
  };
}
