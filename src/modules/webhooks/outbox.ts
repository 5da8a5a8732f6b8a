import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { ClaimedDelivery } from './delivery.repo.ts';
import type { FirstAttempts } from './first-attempt.ts';

export type WebhookKind = 'delivery_receipt' | 'inbound';
export type WebhookEvent = 'message.dlr' | 'message.inbound' | 'message.click';

/** The endpoint (and signing secret) each event goes to. */
export const kindOf: Record<WebhookEvent, WebhookKind> = { 'message.dlr': 'delivery_receipt', 'message.inbound': 'inbound', 'message.click': 'delivery_receipt' };

/** What an endpoint receives while its `events` list is null (never set): its own event. */
export const DEFAULT_EVENTS: Record<WebhookKind, WebhookEvent[]> = { delivery_receipt: ['message.dlr'], inbound: ['message.inbound'] };

/**
 * What an endpoint's `events` may list beyond event types: `message.dlr.intermediate` asks for message.dlr events of
 * non-final receipts (ENROUTE, intermediate notifications) too. They are message.dlr events; only endpoints that
 * ask get them, so an endpoint and a client library that know only final receipts see none.
 */
export type EventOption = 'message.dlr.intermediate';
export type EndpointEvent = WebhookEvent | EventOption;

/** What an endpoint may list in `events`: message.click and intermediate receipts are opt-in on the delivery endpoint. */
export const OFFERED_EVENTS: Record<WebhookKind, EndpointEvent[]> = {
  delivery_receipt: ['message.dlr', 'message.click', 'message.dlr.intermediate'], inbound: ['message.inbound'],
};

/** SQL: the endpoint kind of the event in `column` (for joins from a delivery to its endpoint). */
export function kindOfEventSql(column: SQL): SQL {
  const whens = (Object.entries(kindOf) as Array<[WebhookEvent, WebhookKind]>).map(([event, kind]) => sql`when ${sql.raw(`'${event}'`)} then ${sql.raw(`'${kind}'`)}`);
  return sql`(case ${column} ${sql.join(whens, sql` `)} end)`;
}

/**
 * SQL over a `webhook_endpoints` row: it is enabled and receives `event` (its `events` list names it, or the list
 * is unset and the event is the kind's default). One condition, no extra query on the receipt path.
 */
function receives(event: WebhookEvent, option?: EventOption): SQL {
  const byDefault = !option && DEFAULT_EVENTS[kindOf[event]].includes(event);
  const listed = sql`${sql.raw(`'${option ?? event}'`)} = any(events)`;
  return sql`kind = ${sql.raw(`'${kindOf[event]}'`)} and enabled and ${byDefault ? sql`(events is null or ${listed})` : listed}`;
}

/**
 * The transactional outbox: called inside the transaction that records a receipt, an inbound message or a click,
 * so the event exists if and only if the fact it reports was committed. The body bytes are fixed here and sent
 * unchanged on every attempt. Nothing is recorded while the account has no enabled endpoint receiving the event
 * (with `option`, none whose `events` list that option). Returns the delivery id (X-Service-Delivery), or null
 * when nothing was recorded.
 */
export async function recordEvent(
  tx: Executor,
  input: { accountId: string; event: WebhookEvent; messageId: string; body: unknown; option?: EventOption },
): Promise<string | null> {
  const id = uuidv7();
  const inserted = await rows<{ id: string }>(tx, sql`
    insert into webhook_deliveries (id, account_id, event, message_id, body)
    select ${id}, ${input.accountId}, ${input.event}, ${input.messageId}, ${JSON.stringify(input.body)}
    where exists (select 1 from webhook_endpoints
                  where account_id = ${input.accountId} and ${receives(input.event, input.option)})
    returning id`);
  return inserted[0]?.id ?? null;
}

/**
 * recordEvent for many events of one kind in one statement (the receipt batch path); same rules, same bytes.
 * With `first` (this process runs the webhook worker: first-attempt.ts), the events it has room for are inserted
 * leased to its claim and handed to it after the commit, without a claim update.
 */
export async function recordEvents(
  tx: Executor,
  event: WebhookEvent,
  items: Array<{ accountId: string; messageId: string; body: unknown }>,
  first?: FirstAttempts,
): Promise<number> {
  if (items.length === 0) return 0;
  const held = first?.reserve(items.map((i) => ({ accountId: i.accountId, event }))) ?? [];
  const input = JSON.stringify(items.map((i, n) => ({
    id: uuidv7(), account_id: i.accountId, message_id: i.messageId, body: JSON.stringify(i.body), held: held[n] === true,
  })));
  // Born claimed: the lease and token a claim would write (delivery.repo.ts claimDue), and the endpoint as the
  // claim returns it.
  const leaseMs = first?.leaseMs ?? 0;
  const inserted = await rows<ClaimedDelivery & { held: boolean }>(tx, sql`
    with inserted as (
      insert into webhook_deliveries (id, account_id, event, message_id, body, next_attempt_at, lease_until, claim_token)
      select x.id, x.account_id, ${event}, x.message_id, x.body,
             case when x.held then now() + ${leaseMs} * interval '1 millisecond' else now() end,
             case when x.held then now() + ${leaseMs} * interval '1 millisecond' end,
             case when x.held then ${first?.token ?? null}::uuid end
      from jsonb_to_recordset(${input}::jsonb) as x(id uuid, account_id uuid, message_id uuid, body text, held boolean)
      where exists (select 1 from webhook_endpoints
                    where account_id = x.account_id and ${receives(event)})
      order by x.id
      returning id, account_id, event, body, attempts, claim_token
    )
    select i.id, i.account_id as "accountId", i.event, i.body, i.attempts, i.claim_token as claim,
           i.claim_token is not null as held,
           e.url, e.url_credentials_sealed as "urlCredentialsSealed", e.enabled, e.secret_sealed as "secretSealed",
           case when e.previous_secret_until > now() then e.previous_secret_sealed end as "previousSecretSealed"
    from inserted i
    left join webhook_endpoints e on e.account_id = i.account_id and e.kind = ${sql.raw(`'${kindOf[event]}'`)}`);
  first?.inserted(inserted.filter((r) => r.held).map(({ held: _held, ...row }) => row));
  return inserted.length;
}
