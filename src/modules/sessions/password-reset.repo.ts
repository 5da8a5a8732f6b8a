import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

/** Everyone who signs in with this email (active members of open accounts, oldest first): each gets a link. */
export const resetCandidates = (db: Executor, email: string) => rows<{ id: string; email: string; account_id: string; business_name: string }>(db, sql`
  select u.id, u.email, u.account_id, a.business_name from account_users u join accounts a on a.id = u.account_id
  where lower(u.email) = ${email} and u.removed_at is null and a.account_status <> 'closed'
  order by u.created_at, u.id limit 5`);

export async function insertReset(db: Executor, tokenHash: string, userId: string, minutes: number): Promise<void> {
  await db.execute(sql`insert into password_resets (token_hash, user_id, expires_at) values (${tokenHash}, ${userId}, now() + make_interval(mins => ${minutes}))`);
}

/** A live link's user: unused, unexpired, the user not removed. */
export async function findReset(db: Executor, tokenHash: string) {
  const [row] = await rows<{ user_id: string; email: string; account_id: string }>(db, sql`
    select r.user_id, u.email, u.account_id from password_resets r join account_users u on u.id = r.user_id
    where r.token_hash = ${tokenHash} and r.used_at is null and r.expires_at > now() and u.removed_at is null`);
  return row ?? null;
}

/**
 * Spends the link and sets the password in the caller's transaction: every other link of the user is spent too,
 * a pending invite is spent (the user now has a password), and every session of the user ends. False when the
 * link was spent meanwhile (two uses at once: one wins).
 */
export async function applyReset(tx: Executor, tokenHash: string, userId: string, passwordHash: string): Promise<boolean> {
  const spent = await rows<{ user_id: string }>(tx, sql`
    update password_resets set used_at = now() where token_hash = ${tokenHash} and used_at is null and expires_at > now() returning user_id`);
  if (spent.length === 0) return false;
  await tx.execute(sql`update password_resets set used_at = now() where user_id = ${userId} and used_at is null`);
  await tx.execute(sql`update account_users set password_hash = ${passwordHash}, invite_hash = null, invite_expires_at = null where id = ${userId}`);
  await tx.execute(sql`update sessions set revoked_at = now() where user_id = ${userId} and revoked_at is null`);
  return true;
}
