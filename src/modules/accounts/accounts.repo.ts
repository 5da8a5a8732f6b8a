import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { accounts, numbers } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { senderIdUsable } from '../senders/senders.repo.ts';

export type AccountRow = typeof accounts.$inferSelect;

export interface NewAccount {
  businessName: string;
  email: string | null;
  abn: string | null;
  /** the operator set the ABN (admin API); a parent-declared ABN is never verified */
  abnVerified?: boolean;
  parentId?: string | null;
  hierarchyEnabled?: boolean;
  dailyLimit?: number | null;
  managedByParent?: boolean;
  teamAccessFromParent?: boolean;
  optoutExempt?: boolean;
  inheritParentSenders?: boolean;
}

/** Inserts an account with a zero balance; credits arrive through the ledger. */
export async function insertAccount(db: Executor, input: NewAccount): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values({ id: uuidv7(), credits: 0, ...input }).returning();
  return row!;
}

export async function findAccount(db: Executor, accountId: string): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  return row ?? null;
}

/** The row, locked until the transaction ends. */
export async function lockAccount(tx: Executor, accountId: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
  return row ?? null;
}

export async function updateAccount(
  db: Executor, accountId: string, changes: Partial<Omit<AccountRow, 'id' | 'credits' | 'createdAt'>>,
): Promise<AccountRow | null> {
  const [row] = await db.update(accounts).set({ ...changes, updatedAt: new Date() })
    .where(eq(accounts.id, accountId)).returning();
  return row ?? null;
}

export interface ChildSummary {
  id: string;
  businessName: string;
  parentId: string;
  credits: number;
  accountStatus: string;
  createdAt: Date;
}

/** A parent's open sub-accounts, oldest first. Closed ones are gone from the API (history stays in reports). */
export async function listChildren(db: Executor, parentId: string): Promise<ChildSummary[]> {
  const list = await db.select({
    id: accounts.id, businessName: accounts.businessName, parentId: accounts.parentId, credits: accounts.credits,
    accountStatus: accounts.accountStatus, createdAt: accounts.createdAt,
  }).from(accounts)
    .where(and(eq(accounts.parentId, parentId), ne(accounts.accountStatus, 'closed')))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
  return list.map((r) => ({ ...r, parentId: r.parentId! }));
}

/** Active users and held numbers of one account, for the account detail. */
export async function accountCounts(db: Executor, accountId: string): Promise<{ users: number; numbers: number }> {
  const [row] = await rows<{ users: number; numbers: number }>(db, sql`
    select (select count(*)::int from account_users where account_id = ${accountId} and removed_at is null) as users,
           (select count(*)::int from numbers where account_id = ${accountId}) as numbers`);
  return row ?? { users: 0, numbers: 0 };
}

/**
 * The account's defaults as the client libraries read them: its first dedicated number (the default sender,
 * as the send rule picks it) and the first Sender ID it may send as (the send rule's `senderIdUsable`, with the
 * parent's when it inherits them); null when it has none. A Sender ID the account cannot use is never shown:
 * matching on a self-declared ABN alone would name another business's registration.
 */
export async function accountSenders(db: Executor, account: { id: string; parentId: string | null; inheritParentSenders: boolean }): Promise<{ number: string | null; senderId: string | null }> {
  const parentId = account.inheritParentSenders ? account.parentId : null;
  const [row] = await rows<{ number: string | null; sender_id: string | null }>(db, sql`
    select (select n.number from numbers n where n.account_id = ${account.id} order by n.number limit 1) as number,
           (select s.sender_id from sender_ids s
            where ${senderIdUsable(sql`${account.id}::uuid`, sql`${parentId}::uuid`)}
            order by s.sender_id limit 1) as sender_id`);
  return { number: row?.number ?? null, senderId: row?.sender_id ?? null };
}

/**
 * Locks both accounts' rows in id order. Every transfer (allocate, recall, close) takes its locks this way, so two
 * transfers between the same pair can never wait on each other in a cycle; a send locks only its own row.
 */
export async function lockPair(tx: Executor, a: string, b: string): Promise<void> {
  const [first, second] = a < b ? [a, b] : [b, a];
  await rows(tx, sql`select id from accounts where id = ${first} for update`);
  await rows(tx, sql`select id from accounts where id = ${second} for update`);
}

/** Whether an open account of this parent's branch (the parent or a sub-account) already uses the email. */
export async function branchEmailTaken(db: Executor, parentId: string, email: string, exceptId: string | null = null): Promise<boolean> {
  const [row] = await rows<{ taken: boolean }>(db, sql`
    select exists(select 1 from accounts
      where (id = ${parentId} or parent_id = ${parentId}) and account_status <> 'closed'
        and lower(email) = lower(${email}) and id is distinct from ${exceptId}::uuid) as taken`);
  return row?.taken ?? false;
}

export async function closeAccountRow(db: Executor, accountId: string): Promise<void> {
  await db.update(accounts).set({ accountStatus: 'closed', closedAt: new Date(), updatedAt: new Date() })
    .where(eq(accounts.id, accountId));
}

/** A closing sub-account's dedicated numbers go back to its parent. */
export async function moveNumbersBetween(db: Executor, from: string, to: string): Promise<number> {
  const moved = await db.update(numbers).set({ accountId: to, assignedAt: new Date() })
    .where(eq(numbers.accountId, from)).returning({ id: numbers.id });
  return moved.length;
}
