import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { accountUsers } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';

export type UserRow = typeof accountUsers.$inferSelect;

/** Active members of one account, oldest first. Removed members stay in the table, out of every list. */
export async function listUsers(db: Executor, accountId: string): Promise<UserRow[]> {
  return db.select().from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), isNull(accountUsers.removedAt)))
    .orderBy(asc(accountUsers.createdAt), asc(accountUsers.id));
}

/**
 * Adds a member; null when the account already has an active member with that email (case-insensitive), which
 * the partial unique index decides, so two concurrent invitations cannot both succeed.
 */
export async function insertUser(
  db: Executor, accountId: string, input: { email: string; name: string | null; canSend: boolean; canBilling: boolean },
): Promise<UserRow | null> {
  const [row] = await db.insert(accountUsers).values({ id: uuidv7(), accountId, ...input, status: 'active', source: 'direct' })
    .onConflictDoNothing().returning();
  return row ?? null;
}

/** Removes an active member; false when the account has no such active member. */
export async function removeUser(db: Executor, accountId: string, memberId: string): Promise<boolean> {
  const done = await db.update(accountUsers).set({ removedAt: new Date(), status: 'removed' })
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.id, memberId), isNull(accountUsers.removedAt)))
    .returning({ id: accountUsers.id });
  return done.length > 0;
}
