import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../platform/actor.ts';

/** The accounts whose senders the caller may use: its own, and its parent's with inherit_parent_senders. */
function senderOwners(actor: Actor): SQL {
  const { account } = actor;
  const ids = account.inheritParentSenders && account.parentId ? [account.id, account.parentId] : [account.id];
  return sql`(${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`;
}

export type RequestedSender = { kind: 'number'; e164: string } | { kind: 'alpha'; senderId: string } | null;

/**
 * A query yielding at most one row `{sender}`: the sender the caller may use for this request. With no sender
 * requested it is the account's first dedicated number (none: the caller falls back to the shared number).
 * Written as SQL so the single-send statement can embed it and check it in the same round trip.
 */
export function allowedSenderQuery(actor: Actor, requested: RequestedSender): SQL {
  if (requested === null) {
    return sql`select number as sender from numbers where account_id = ${actor.accountId} order by number limit 1`;
  }
  if (requested.kind === 'number') {
    return sql`select number as sender from numbers
      where number = ${requested.e164} and account_id in ${senderOwners(actor)} limit 1`;
  }
  return sql`select s.sender_id as sender from sender_ids s
    where lower(s.sender_id) = lower(${requested.senderId})
      and s.abn in (select abn from accounts where id in ${senderOwners(actor)} and abn is not null)
    limit 1`;
}
