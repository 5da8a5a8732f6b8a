import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.ts';
import { messages } from '../../platform/db/schema/index.ts';
import type { MessageRow } from '../messages/messages.repo.ts';

export type IntermediateRecord = NonNullable<MessageRow['intermediateReceipt']>;

/**
 * Records a non-final receipt on a message still awaiting its final one (`sent`, no delivery receipt): a final
 * state is never overwritten and a message never goes back. A repeat of the state it already shows (an SMSC
 * resending) changes nothing. Returns the updated row, or null when nothing changed.
 */
export async function setIntermediate(tx: Executor, messageId: string, record: IntermediateRecord): Promise<MessageRow | null> {
  const [row] = await tx.update(messages)
    .set({ intermediateReceipt: record })
    .where(and(
      eq(messages.id, messageId), eq(messages.status, 'sent'), isNull(messages.dlrStatus),
      sql`(${messages.intermediateReceipt} is null
           or ${messages.intermediateReceipt} - 'received_at' is distinct from ${JSON.stringify({ ...record, received_at: undefined })}::jsonb)`,
    ))
    .returning();
  return row ?? null;
}
