import { sql } from 'drizzle-orm';
import type { Actor } from '../../platform/actor.ts';
import { rows, type Db } from '../../platform/db/client.ts';
import { senderIdUsable } from './senders.repo.ts';

// The Sender IDs an account may put in `sender`, and with inherit_parent_senders its parent's: the rule
// senderExpression checks, listed.
export function createSenderService(deps: { db: Db }) {
  async function list(actor: Actor) {
    const parentId = actor.account.inheritParentSenders ? actor.account.parentId : null;
    const found = await rows<{ sender_id: string }>(deps.db, sql`
      select distinct s.sender_id from sender_ids s
      where ${senderIdUsable(sql`${actor.accountId}::uuid`, sql`${parentId}::uuid`)}
      order by s.sender_id`);
    return { sender_ids: found.map((r) => r.sender_id) };
  }
  return { list };
}

export type SenderService = ReturnType<typeof createSenderService>;
