import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { accounts } from '../../platform/db/schema/index.ts';
import { uuidv7 } from '../../platform/ids.ts';

export type AccountRow = typeof accounts.$inferSelect;

export interface NewAccount {
  businessName: string;
  email: string | null;
  abn: string | null;
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

export async function updateAccount(
  db: Executor, accountId: string, changes: Partial<Omit<AccountRow, 'id' | 'credits' | 'createdAt'>>,
): Promise<AccountRow | null> {
  const [row] = await db.update(accounts).set({ ...changes, updatedAt: new Date() })
    .where(eq(accounts.id, accountId)).returning();
  return row ?? null;
}
