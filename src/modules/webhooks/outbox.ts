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

/** recordEvent for many events of one kind in one statement (the receipt batch path); same rules, same bytes. */
export async function recordEvents(
  tx: Executor,
  event: WebhookEvent,
  items: Array<{ accountId: string; messageId: string; body: unknown }>,
): Promise<number> {
  if (items.length === 0) return 0;
  const input = JSON.stringify(items.map((i) => ({ id: uuidv7(), account_id: i.accountId, message_id: i.messageId, body: JSON.stringify(i.body) })));
  const inserted = await rows<{ id: string }>(tx, sql`
    insert into webhook_deliveries (id, account_id, event, message_id, body)
    select x.id, x.account_id, ${event}, x.message_id, x.body
    from jsonb_to_recordset(${input}::jsonb) as x(id uuid, account_id uuid, message_id uuid, body text)
    where exists (select 1 from webhook_endpoints
                  where account_id = x.account_id and kind = ${kindOf[event]} and enabled)
    order by x.id
    returning id`);
  return inserted.length;
}
