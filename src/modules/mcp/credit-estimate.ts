import { fieldsOf, renderMerge } from '../messages/merge.ts';
import { countParts } from '../messages/parts.ts';
import { normalisePhone } from '../../common/phone.ts';
import { readRecipient, type BatchRecipient } from '../messages/recipients.ts';

// The most credits a send could cost, worked out before it is made (the MCP guard rail). It applies the send
// path's own pure rules (number normalisation, merge fields, part counting) and leaves out only what needs the
// database: opted-out recipients are counted, so the estimate is an upper bound, never an underestimate.
// `optoutLink` stands in for {{OptOutLink}} at the length the real link will have.

export function estimateSendCredits(message: string, optoutLink: string): number {
  return countParts(renderMerge(message, undefined, { OptOutLink: optoutLink }));
}

export function estimateBatchCredits(input: { recipients?: BatchRecipient[]; message: string }, optoutLink: string): number {
  const seen = new Set<string>();
  let total = 0;
  const recipients = (input.recipients ?? []).map(readRecipient);
  const fields = fieldsOf(recipients.map((r) => r.merge_data));
  for (const r of recipients) {
    // An upper bound for the cap: a local number counts if it is a mobile in either country's reading.
    const raw = r.phone;
    const au = normalisePhone(raw, 'AU');
    const phone = au.ok ? au : normalisePhone(raw, 'NZ');
    if (!phone.ok || seen.has(phone.e164)) continue;
    seen.add(phone.e164);
    total += countParts(renderMerge(input.message, r.merge_data, { OptOutLink: optoutLink }, fields));
  }
  return total;
}

/** A link as long as the ones `OPTOUT_LINK_BASE` yields (7-character codes). */
export const sampleOptoutLink = (base: string) => `${base.replace(/\/+$/, '')}/XXXXXXX`;
