import type { LinksOf } from '../../common/link-view.ts';
import type { Executor } from '../../platform/db/client.ts';
import { toMessageView } from '../messages/message-view.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { deleteParked, firstCopyCandidates } from './parked.repo.ts';
import { applyFinal, receiptKey } from './receipts.repo.ts';

// A parked receipt younger than this is not taken as a resent message's first copy's: it more likely belongs to a
// message in flight whose `sent` write is pending (a resend comes a lease, 15 s, after its first submit).
const FIRST_COPY_SETTLED_MS = 5_000;

/**
 * A message is resent when its first copy's `sent` write died with its process; that copy's receipt, if it came,
 * is parked under an id no message will ever hold. In the transaction that records the resend (the dispatcher),
 * a parked receipt that is the first copy's — the only one nothing holds about that recipient on that carrier
 * since the message was created, and this the only such message here — is applied when it says delivered (the
 * handset has the text) and deleted otherwise (the new copy's receipt decides). Anything less certain is left to
 * age out, counted (docs/decisions/0060-parked-receipts-found-by-holder.md). Returns the message.dlr events recorded.
 */
export async function settleFirstCopies(tx: Executor, messageIds: string[], linksOf: LinksOf): Promise<number> {
  const found = await firstCopyCandidates(tx, messageIds, FIRST_COPY_SETTLED_MS);
  const count = (key: (c: typeof found[number]) => string) => {
    const n = new Map<string, number>();
    for (const c of found) n.set(key(c), (n.get(key(c)) ?? 0) + 1);
    return n;
  };
  const perMessage = count((c) => c.messageId);
  const perParked = count((c) => receiptKey(c));
  let events = 0;
  for (const c of found) {
    if (perMessage.get(c.messageId) !== 1 || perParked.get(receiptKey(c)) !== 1) continue;
    if (c.receipt.state === 'delivered') {
      const updated = await applyFinal(tx, c.messageId, { state: 'delivered', status: 'delivered', receivedAt: c.receivedAt, errorCode: c.receipt.errorCode });
      const links = updated ? await linksOf(tx, [updated]) : null;
      if (updated && await recordEvent(tx, { accountId: updated.accountId, event: 'message.dlr', messageId: updated.id, body: toMessageView(updated, links?.get(updated.id) ?? []) })) events++;
    }
    await deleteParked(tx, c);
  }
  return events;
}
