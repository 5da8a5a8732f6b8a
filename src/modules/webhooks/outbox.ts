import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

export type WebhookKind = 'delivery_receipt' | 'inbound';
export type WebhookEvent = 'message.dlr' | 'message.inbound';

const kindOf: Record<WebhookEvent, WebhookKind> = { 'message.dlr': 'delivery_receipt', 'message.inbound': 'inbound' };

/**
 * The transactional outbox: called inside the transaction that records a receipt or an inbound message, so the
 * event exists if and only if the fact it reports was committed. The body bytes are fixed here and sent
 * unchanged on every attempt. Nothing is recorded while the account has no enabled endpoint for the event.
 * Returns the delivery id (X-Service-Delivery), or null when nothing was recorded.
 */
export async function recordEvent(
  tx: Executor,
  input: { accountId: string; event: WebhookEvent; messageId: string; body: unknown },
): Promise<string | null> {
  const id = uuidv7();
  const inserted = await rows<{ id: string }>(tx, sql`
    insert into webhook_deliveries (id, account_id, event, message_id, body)
    select ${id}, ${input.accountId}, ${input.event}, ${input.messageId}, ${JSON.stringify(input.body)}
    where exists (select 1 from webhook_endpoints
                  where account_id = ${input.accountId} and kind = ${kindOf[input.event]} and enabled)
    returning id`);
  return inserted[0]?.id ?? null;
}
