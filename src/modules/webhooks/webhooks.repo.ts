import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { EndpointEvent, WebhookEvent, WebhookKind } from './outbox.ts';

// Tenant queries for webhook configuration and the deliveries log. Every function takes the account id first.
// The worker's claiming queries live in delivery.repo.ts: they are not per tenant.

export type EndpointRow = {
  kind: WebhookKind;
  url: string;
  enabled: boolean;
  signingEnabled: boolean;
  /** the URL had credentials, stored sealed apart from `url` */
  hasCredentials: boolean;
  disabledReason: string | null;
  /** opt-in event list; null: the kind's default (outbox.ts DEFAULT_EVENTS) */
  events: EndpointEvent[] | null;
  createdAt: Date;
  updatedAt: Date;
};

const endpointColumns = sql`kind, url, enabled, secret_sealed is not null as "signingEnabled", url_credentials_sealed is not null as "hasCredentials",
  disabled_reason as "disabledReason", events, created_at as "createdAt", updated_at as "updatedAt"`;

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const toEndpoint = (r: EndpointRow): EndpointRow => ({ ...r, createdAt: asDate(r.createdAt), updatedAt: asDate(r.updatedAt) });

export async function listEndpoints(db: Executor, accountId: string): Promise<EndpointRow[]> {
  const found = await rows<EndpointRow>(db, sql`
    select ${endpointColumns} from webhook_endpoints where account_id = ${accountId}`);
  return found.map(toEndpoint);
}

/**
 * Creates the endpoint or changes its URL and switch. `enabled` undefined keeps the current value, except that an
 * endpoint the service disabled (disabled_reason set) comes back on: a PUT is how a client re-enables it. Any PUT
 * clears disabled_reason. `sealed` becomes the signing secret only when the endpoint has none (secure by default);
 * `secretGenerated` says whether it did, so the caller returns the secret exactly once.
 */
export async function upsertEndpoint(
  db: Executor, accountId: string, kind: WebhookKind, input: { url: string; enabled: boolean | undefined; events: EndpointEvent[] | undefined; sealed: Buffer; credentials: Buffer | null },
): Promise<EndpointRow & { secretGenerated: boolean }> {
  // Omitted on update keeps the list the endpoint has (as `enabled` does).
  const eventsParam = input.events === undefined ? sql`null::text[]` : sql`${`{${input.events.join(',')}}`}::text[]`;
  const [row] = await rows<EndpointRow & { secretGenerated: boolean }>(db, sql`
    insert into webhook_endpoints (account_id, kind, url, enabled, secret_sealed, url_credentials_sealed, events)
    values (${accountId}, ${kind}, ${input.url}, ${input.enabled ?? true}, ${input.sealed}, ${input.credentials}, ${eventsParam})
    on conflict (account_id, kind) do update
      set url = excluded.url,
          url_credentials_sealed = excluded.url_credentials_sealed,
          enabled = coalesce(${input.enabled ?? null}::boolean,
                             webhook_endpoints.enabled or webhook_endpoints.disabled_reason is not null),
          disabled_reason = null,
          disabled_at = null,
          events = coalesce(excluded.events, webhook_endpoints.events),
          secret_sealed = coalesce(webhook_endpoints.secret_sealed, excluded.secret_sealed),
          updated_at = now()
    returning ${endpointColumns}, secret_sealed = ${input.sealed} as "secretGenerated"`);
  return { ...toEndpoint(row!), secretGenerated: row!.secretGenerated };
}

/**
 * Replaces the sealed signing secret; false when the endpoint does not exist. The secret it replaces keeps
 * signing `webhook-signature` for `overlapMs` (rotation without a gap); `X-…-Signature` uses the new one at once.
 */
export async function setSealedSecret(db: Executor, accountId: string, kind: WebhookKind, sealed: Buffer, overlapMs: number): Promise<boolean> {
  const updated = await rows<{ kind: string }>(db, sql`
    update webhook_endpoints
    set previous_secret_sealed = secret_sealed,
        previous_secret_until = case when secret_sealed is null then null
                                     else now() + ${overlapMs} * interval '1 millisecond' end,
        secret_sealed = ${sealed}, updated_at = now()
    where account_id = ${accountId} and kind = ${kind}
    returning kind`);
  return updated.length > 0;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export type DeliveryRow = {
  id: string;
  event: WebhookEvent;
  messageId: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  leaseUntil: Date | null;
  createdAt: Date;
  completedAt: Date | null;
};

export type AttemptRow = {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
};

const deliveryColumns = sql`id, event, message_id as "messageId", status, attempts,
  next_attempt_at as "nextAttemptAt", lease_until as "leaseUntil", created_at as "createdAt",
  completed_at as "completedAt"`;

const toDelivery = (r: DeliveryRow): DeliveryRow => ({
  ...r,
  nextAttemptAt: asDate(r.nextAttemptAt),
  leaseUntil: r.leaseUntil === null ? null : asDate(r.leaseUntil),
  createdAt: asDate(r.createdAt),
  completedAt: r.completedAt === null ? null : asDate(r.completedAt),
});

export type DeliveryFilter = { status?: DeliveryStatus; event?: WebhookEvent; message_id?: string; limit: number; offset: number };

/** Newest first; ids are UUIDv7, so id order is creation order and breaks ties between equal timestamps. */
export async function listDeliveries(db: Executor, accountId: string, filter: DeliveryFilter) {
  const where = sql`account_id = ${accountId}
    ${filter.status ? sql`and status = ${filter.status}` : sql``}
    ${filter.event ? sql`and event = ${filter.event}` : sql``}
    ${filter.message_id ? sql`and message_id = ${filter.message_id}` : sql``}`;
  const [count] = await rows<{ total: number | string }>(db, sql`
    select count(*)::int as total from webhook_deliveries where ${where}`);
  const list = await rows<DeliveryRow>(db, sql`
    select ${deliveryColumns} from webhook_deliveries where ${where}
    order by created_at desc, id desc limit ${filter.limit} offset ${filter.offset}`);
  return { total: Number(count?.total ?? 0), deliveries: list.map(toDelivery) };
}

export async function findDelivery(db: Executor, accountId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await rows<DeliveryRow>(db, sql`
    select ${deliveryColumns} from webhook_deliveries where account_id = ${accountId} and id = ${id}`);
  return row ? toDelivery(row) : null;
}

/**
 * Attempts of the given deliveries (all of them belong to accountId: the ids came from a tenant query), oldest
 * first: the failed ones are webhook_attempts rows, a successful one is in its delivery's `success_*` columns
 * (delivery.repo.ts completeAttempts). It is the last of its delivery's attempts, so it sorts last on a tie.
 */
export async function listAttempts(db: Executor, accountId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const ids = sql.join(deliveryIds.map((id) => sql`${id}::uuid`), sql`, `);
  const found = await rows<AttemptRow>(db, sql`
    select "deliveryId", "attemptedAt", "statusCode", error, "durationMs" from (
      select a.delivery_id as "deliveryId", a.attempted_at as "attemptedAt", a.status_code as "statusCode",
             a.error, a.duration_ms as "durationMs", 0 as folded, a.id
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.account_id = ${accountId} and a.delivery_id in (${ids})
      union all
      select id, success_attempted_at, success_status_code, null, success_duration_ms, 1, id
      from webhook_deliveries
      where account_id = ${accountId} and id in (${ids}) and success_attempted_at is not null
    ) attempts
    order by "attemptedAt", folded, id`);
  return found.map((a) => ({ ...a, attemptedAt: asDate(a.attemptedAt) }));
}

/**
 * Queues a delivery again with a fresh schedule: pending, no attempts counted, due now. The id (and so
 * X-Service-Delivery) and body bytes stay the same; earlier attempts stay in the log: a successful one kept in the
 * row's `success_*` columns moves into webhook_attempts, so the next success has its place.
 * Refused while an attempt holds the lease, so a redelivery can never overlap an attempt in flight.
 */
export async function requeueDelivery(db: Executor, accountId: string, id: string): Promise<'requeued' | 'in_progress' | 'missing'> {
  const updated = await rows<{ id: string }>(db, sql`
    with old as (
      select id, success_attempted_at, success_status_code, success_duration_ms from webhook_deliveries
      where account_id = ${accountId} and id = ${id} and (lease_until is null or lease_until < now())
      for update
    ), requeued as (
      update webhook_deliveries d
      set status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = null, completed_at = null,
          success_attempted_at = null, success_status_code = null, success_duration_ms = null
      from old
      where d.id = old.id
      returning d.id
    ), kept as (
      insert into webhook_attempts (id, delivery_id, attempted_at, status_code, error, duration_ms)
      select ${uuidv7()}::uuid, id, success_attempted_at, success_status_code, null, success_duration_ms
      from old where success_attempted_at is not null
    )
    select id from requeued`);
  if (updated.length > 0) return 'requeued';
  return (await findDelivery(db, accountId, id)) ? 'in_progress' : 'missing';
}
