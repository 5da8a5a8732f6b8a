import { sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../platform/actor.ts';
import { rows, type Executor } from '../../platform/db/client.ts';
import { senderIds } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';

export type RequestedSender = { kind: 'number'; e164: string } | { kind: 'alpha'; senderId: string } | null;

/** How a requested sender travels into SQL: its kind ('default' when none was given) and its value. */
export function senderParams(requested: RequestedSender): { kind: 'default' | 'number' | 'alpha'; value: string | null } {
  if (requested === null) return { kind: 'default', value: null };
  return requested.kind === 'number' ? { kind: 'number', value: requested.e164 } : { kind: 'alpha', value: requested.senderId };
}

/**
 * THE sender rule, as one SQL expression so both send paths share it: the single-send statement evaluates it per
 * request row, the batch once. It yields the sender to put on the wire, or null when the request may not use it:
 * - no sender asked for: the account's first dedicated number, else `shared`;
 * - a number: one held by the account, or by `parentId` (its parent, given only with inherit_parent_senders);
 * - a Sender ID, in its registered spelling: one the operator registered to the account or to `parentId`, or
 *   registered to an ABN without an account while the account (or `parentId`) holds that ABN as the operator set
 *   it. An ABN a parent declared for its sub-account never grants one: only the operator's registration proves it.
 */
/** Whether Sender ID row `s` may be used by the account or its (inheriting) parent: the rule for both sending and listing. */
export function senderIdUsable(accountId: SQL, parentId: SQL): SQL {
  return sql`exists (select 1 from accounts a where a.id in (${accountId}, ${parentId})
                          and (s.account_id = a.id or (s.account_id is null and a.abn_verified and a.abn = s.abn)))`;
}

export function senderExpression(c: { accountId: SQL; parentId: SQL; kind: SQL; value: SQL; shared: SQL }): SQL {
  return sql`case ${c.kind}
    when 'default' then coalesce(
      (select n.number from numbers n where n.account_id = ${c.accountId} order by n.number limit 1), ${c.shared})
    when 'number' then
      (select n.number from numbers n where n.number = ${c.value} and n.account_id in (${c.accountId}, ${c.parentId}) limit 1)
    else (select s.sender_id from sender_ids s
          where lower(s.sender_id) = lower(${c.value})
            and ${senderIdUsable(c.accountId, c.parentId)}
          limit 1)
  end`;
}

/**
 * One row `{sender}` for a batch: the sender the caller may use, or null (refused; with no sender asked for,
 * null means "no dedicated number": the caller uses the shared number of each recipient's country).
 */
export function allowedSenderQuery(actor: Actor, requested: RequestedSender): SQL {
  const { kind, value } = senderParams(requested);
  const parentId = actor.account.inheritParentSenders ? actor.account.parentId : null;
  return sql`select ${senderExpression({
    accountId: sql`${actor.accountId}::uuid`, parentId: sql`${parentId}::uuid`,
    kind: sql`${kind}::text`, value: sql`${value}::text`, shared: sql`null::text`,
  })} as sender`;
}

/** The Sender IDs the account (and an inheriting parent) may use, in order. */
export async function listUsableSenderIds(db: Executor, accountId: string, parentId: string | null): Promise<string[]> {
  const found = await rows<{ sender_id: string }>(db, sql`
    select distinct s.sender_id from sender_ids s
    where ${senderIdUsable(sql`${accountId}::uuid`, sql`${parentId}::uuid`)}
    order by s.sender_id`);
  return found.map((r) => r.sender_id);
}

/** Registers a Sender ID to an ABN (and an account); null when that registration exists already. */
export async function insertSenderId(db: Executor, input: { senderId: string; abn: string; accountId: string | null }) {
  const [row] = await db.insert(senderIds).values({ id: uuidv7(), ...input }).onConflictDoNothing().returning();
  return row ?? null;
}

/** The registration of this Sender ID (any case) to this ABN and account, if there is one. */
export async function findSenderId(db: Executor, input: { senderId: string; abn: string; accountId: string }): Promise<string | null> {
  const [row] = await rows<{ id: string }>(db, sql`
    select id from sender_ids where lower(sender_id) = lower(${input.senderId}) and abn = ${input.abn} and account_id = ${input.accountId}`);
  return row?.id ?? null;
}
