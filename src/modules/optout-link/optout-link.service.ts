import type { Db } from '../../platform/db/client.ts';
import { addOptout } from '../optouts/optouts.service.ts';
import { sharedNumberSenders } from '../inbox/inbox.service.ts';
import { isOptoutCode } from './code.ts';
import { maskNumber } from './page.ts';
import { findByCode } from './optout-link.repo.ts';

export type OptoutLinkTarget = { businessName: string; maskedNumber: string };

/**
 * The one-tap opt-out link. The code alone is the authority (7 random base62 characters, one per recipient and
 * message), so there is no API key: the code finds the message, which names the account and the recipient.
 * A message whose content was removed by retention has lost its code, and its link answers "not found".
 */
export function createOptoutLinkService(deps: { db: Db; sharedSender?: { AU: string; NZ: string } }) {
  const shared = new Set(Object.values(deps.sharedSender ?? {}));

  async function find(code: string) {
    if (!isOptoutCode(code)) return null;
    return findByCode(deps.db, code);
  }

  /** What the confirmation page shows; records nothing (link previewers fetch it). Null for an unknown code. */
  async function preview(code: string): Promise<OptoutLinkTarget | null> {
    const row = await find(code);
    return row ? { businessName: row.businessName, maskedNumber: maskNumber(row.recipient) } : null;
  }

  /** Records the opt-out (source `link`); confirming again changes nothing. Null for an unknown code. */
  async function confirm(code: string): Promise<OptoutLinkTarget | null> {
    const row = await find(code);
    if (!row) return null;
    await deps.db.transaction(async (tx) => {
      await addOptout(tx, row.accountId, row.recipient, 'link', { messageId: row.id });
      // A link in a message from a shared number protects the person from every account that messaged them from
      // it within 30 days, as a STOP to that number does (decision 0016).
      if (!shared.has(row.sender)) return;
      for (const other of await sharedNumberSenders(tx, row.recipient, row.sender, new Date(), row.accountId)) {
        await addOptout(tx, other, row.recipient, 'link', {});
      }
    });
    return { businessName: row.businessName, maskedNumber: maskNumber(row.recipient) };
  }

  return { preview, confirm };
}

export type OptoutLinkService = ReturnType<typeof createOptoutLinkService>;
