import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { accountUsers } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { Role } from '../../platform/permissions.ts';

export type UserRow = Omit<typeof accountUsers.$inferSelect, 'role'> & { role: Role };

const active = (accountId: string) => and(eq(accountUsers.accountId, accountId), isNull(accountUsers.removedAt));

/**
 * Changes to one account's team wait for each other, so "is there an owner yet" and "is this the owner" hold until
 * the change commits. An advisory lock, not the account row: sends debit that row and must not wait here.
 */
export async function lockTeam(tx: Executor, accountId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`team:${accountId}`}))`);
}

/** Active members of one account, oldest first. Removed members stay in the table, out of every list. */
export async function listUsers(db: Executor, accountId: string): Promise<UserRow[]> {
  return db.select().from(accountUsers).where(active(accountId))
    .orderBy(asc(accountUsers.createdAt), asc(accountUsers.id)) as Promise<UserRow[]>;
}

/** One active member of the account, or null. */
export async function findUser(db: Executor, accountId: string, memberId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(accountUsers).where(and(active(accountId), eq(accountUsers.id, memberId)));
  return (row as UserRow | undefined) ?? null;
}

/** One active member, locked for the change about to be made to it (inside a transaction). */
export async function lockUser(db: Executor, accountId: string, memberId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(accountUsers).where(and(active(accountId), eq(accountUsers.id, memberId))).for('update');
  return (row as UserRow | undefined) ?? null;
}

/** Whether the account has an active owner (call with the account row locked, so two first invites cannot race). */
export async function hasOwner(db: Executor, accountId: string): Promise<boolean> {
  const found = await db.select({ id: accountUsers.id }).from(accountUsers).where(and(active(accountId), eq(accountUsers.role, 'owner')));
  return found.length > 0;
}

/**
 * Adds a member; null when the account already has an active member with that email (case-insensitive), which
 * the partial unique index decides, so two concurrent invitations cannot both succeed.
 */
export async function insertUser(
  db: Executor, accountId: string, input: { email: string; name: string | null; role: Role; canSend: boolean; canBilling: boolean },
): Promise<UserRow | null> {
  const [row] = await db.insert(accountUsers).values({ id: uuidv7(), accountId, ...input, status: 'active', source: 'direct' })
    .onConflictDoNothing().returning();
  return (row as UserRow | undefined) ?? null;
}

/** Sets a member's role and flags. */
export async function updateUser(
  db: Executor, accountId: string, memberId: string, change: { role: Role; canSend: boolean; canBilling: boolean },
): Promise<UserRow> {
  const [row] = await db.update(accountUsers).set(change).where(and(active(accountId), eq(accountUsers.id, memberId))).returning();
  return row as UserRow;
}

/** Removes an active member; false when the account has no such active member. */
export async function removeUser(db: Executor, accountId: string, memberId: string): Promise<boolean> {
  const done = await db.update(accountUsers).set({ removedAt: sql`now()`, status: 'removed' })
    .where(and(active(accountId), eq(accountUsers.id, memberId)))
    .returning({ id: accountUsers.id });
  return done.length > 0;
}
