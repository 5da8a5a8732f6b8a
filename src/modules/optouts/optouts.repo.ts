import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { optouts } from '../../platform/db/schema/index.ts';

export type OptoutSource = 'keyword' | 'link' | 'api';

export async function listOptouts(db: Executor, accountId: string) {
  return db.select({ number: optouts.number, createdAt: optouts.createdAt, source: optouts.source })
    .from(optouts).where(eq(optouts.accountId, accountId)).orderBy(desc(optouts.createdAt));
}

/** Records an opt-out; a number already on the list keeps its first date. Returns true when newly added. */
export async function addOptout(db: Executor, accountId: string, number: string, source: OptoutSource): Promise<boolean> {
  const result = await db.insert(optouts).values({ accountId, number, source })
    .onConflictDoNothing().returning({ number: optouts.number });
  return result.length > 0;
}
