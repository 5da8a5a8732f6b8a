import { sql } from 'drizzle-orm';
import { preparedRows, rows, type Executor } from '../../platform/db/client.ts';
import { claimInIndexOrder } from '../../platform/db/queue-claim.ts';
import { kindOfEventSql, type WebhookEvent } from './outbox.ts';

// The delivery worker's queries. They span tenants by design (one queue for every account), so unlike the
// tenant repos they do not take an account id.

/** `${account_id}|${event}`: one endpoint, the unit of the per-endpoint concurrency bound. */
export const endpointKey = (accountId: string, event: string) => `${accountId}|${event}`;

export type ClaimedDelivery = {
  id: string;
  accountId: string;
  event: WebhookEvent;
  body: string;
  /** Attempts already made in the current schedule, all failed. */
  attempts: number;
  /** The claim's fencing token, handed back on completion. */
  claim: string;
  /** The endpoint as it is now (the URL, switch and secret at send time), null when it no longer exists. */
  url: string | null;
  enabled: boolean | null;
  secretSealed: Uint8Array | null;
  urlCredentialsSealed: Uint8Array | null;
  /** The secret before the last rotation, while it still signs webhook-signature (24 h), else null. */
  previousSecretSealed: Uint8Array | null;
};

export type ClaimInput = {
  /** Most rows to claim. */
  want: number;
  /** Rows to consider per claim (oldest due first) before the per-endpoint cap is applied. */
  scan: number;
  /** Per-endpoint cap for endpoints with nothing in flight here. */
  cap: number;
  /** Remaining room for endpoints that already have deliveries in flight here (0 = skip entirely). */
  room: Record<string, number>;
  leaseMs: number;
  /** The fencing token this claim writes. */
  token: string;
};

/**
 * Claims due deliveries and leases them (next_attempt_at moves to the lease expiry, so a crashed worker's rows
 * come back by themselves). Rows of endpoints with no room are skipped, and at most `room` rows of each endpoint
 * are taken, so one slow endpoint's backlog cannot fill the pool.
 *
 * The oldest `scan` due rows are read without locking, ranked per endpoint, and only the rows that will be taken
 * are locked (FOR UPDATE SKIP LOCKED under LIMIT `want`: a row lock is a write, and locking every scanned row made
 * claims four times dearer). The lock step considers twice `want` eligible rows, so a claim running beside
 * another one still fills up on the rows the other did not take. A row another worker claimed and committed
 * after this statement's snapshot fails the re-checked `next_attempt_at <= now()` and is not taken twice.
 */
export async function claimDue(db: Executor, input: ClaimInput): Promise<ClaimedDelivery[]> {
  const room = JSON.stringify(input.room);
  // Prepared (its text is fixed: the room is one jsonb parameter): planned on every call it spent 0.59 ms planning
  // against 2.5 ms running, with one busy endpoint (decision 0026).
  return claimInIndexOrder(db, (tx) => preparedRows<ClaimedDelivery>(tx, sql`
    with due as (
      select id, account_id, event, next_attempt_at from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now()
        and coalesce((${room}::jsonb ->> (account_id::text || '|' || event))::int, ${input.cap}) > 0
      order by next_attempt_at
      limit ${input.scan}
    ), eligible as (
      select id, next_attempt_at, rn, coalesce((${room}::jsonb ->> (account_id::text || '|' || event))::int, ${input.cap}) as room
      from (
        select id, account_id, event, next_attempt_at,
               row_number() over (partition by account_id, event order by next_attempt_at, id) as rn
        from due
      ) ranked
    ), picked as (
      select d.id, d.account_id, d.event from webhook_deliveries d
      where d.id = any(array(select id from eligible where rn <= room order by next_attempt_at limit ${input.want * 2}))
        and d.status = 'pending' and d.next_attempt_at <= now()
      order by d.next_attempt_at
      limit ${input.want}
      for update skip locked
    )
    update webhook_deliveries d
    set lease_until = now() + ${input.leaseMs} * interval '1 millisecond',
        next_attempt_at = now() + ${input.leaseMs} * interval '1 millisecond',
        claim_token = ${input.token}
    from picked
    left join webhook_endpoints e on e.account_id = picked.account_id
      and e.kind = ${kindOfEventSql(sql`picked.event`)}
    where d.id = picked.id
    returning d.id, d.account_id as "accountId", d.event, d.body, d.attempts, d.claim_token as claim,
              e.url, e.url_credentials_sealed as "urlCredentialsSealed", e.enabled, e.secret_sealed as "secretSealed",
              case when e.previous_secret_until > now() then e.previous_secret_sealed end as "previousSecretSealed"`));
}

/**
 * The heartbeat: extends the leases of deliveries still held under these claims (platform/jobs). Rows are locked
 * in id order, as completeAttempts locks them: a renewal and a completion batch sharing rows would otherwise each
 * hold one row the other waits for (a deadlock, and one of them rolled back).
 */
export async function renewLeases(db: Executor, held: Array<{ id: string; claim: string }>, leaseMs: number): Promise<void> {
  if (held.length === 0) return;
  await db.execute(sql`
    with locked as (
      select id from webhook_deliveries
      where id = any(${`{${held.map((h) => h.id).join(',')}}`}::uuid[])
        and claim_token = any(${`{${[...new Set(held.map((h) => h.claim))].join(',')}}`}::uuid[])
        and status = 'pending'
      order by id
      for update
    )
    update webhook_deliveries d
    set lease_until = now() + ${leaseMs} * interval '1 millisecond',
        next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    from locked
    where d.id = locked.id`);
}

export type AttemptOutcome = {
  id: string;
  /** Whose delivery this is (the auto-disable check after a final failure). */
  endpoint: { accountId: string; event: WebhookEvent };
  claim: string;
  attemptId: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The delivery's state after this attempt. */
  status: 'pending' | 'delivered' | 'failed';
  /** When pending: the next attempt. */
  nextAt: Date | null;
};

/**
 * Records a batch of finished attempts in one statement: every attempt goes into the log (it happened), and each
 * delivery moves on only while it still holds this claim's token, so a worker whose lease ran out cannot overwrite
 * the outcome of the worker that took over. The rows are locked in id order first, as renewLeases locks them (in
 * the batch's order they could deadlock with a renewal of the same rows).
 *
 * The log is compact: an attempt that delivers is written into its delivery's `success_*` columns by the update
 * that marks it delivered, not as a webhook_attempts row (most deliveries succeed at once, and that row was a heap
 * insert and two index entries each). Failed attempts, and a success whose claim was no longer the row's, are rows.
 */
export async function completeAttempts(db: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const input = JSON.stringify(outcomes.map((o) => ({
    id: o.id, claim: o.claim, attempt_id: o.attemptId, attempted_at: o.attemptedAt.toISOString(),
    status_code: o.statusCode, error: o.error, duration_ms: o.durationMs, status: o.status,
    next_at: o.nextAt ? o.nextAt.toISOString() : null,
  })));
  await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as x(
        id uuid, claim uuid, attempt_id uuid, attempted_at timestamptz, status_code int, error text,
        duration_ms int, status text, next_at timestamptz)
    ), locked as (
      select d.id from webhook_deliveries d join input x on d.id = x.id and d.claim_token = x.claim
      order by d.id
      for update of d
    ), moved as (
      update webhook_deliveries d
      set status = x.status,
          attempts = d.attempts + 1,
          next_attempt_at = coalesce(x.next_at, d.next_attempt_at),
          lease_until = null,
          claim_token = null,
          completed_at = case when x.status = 'pending' then null else now() end,
          success_attempted_at = case when x.status = 'delivered' then x.attempted_at else d.success_attempted_at end,
          success_status_code = case when x.status = 'delivered' then x.status_code else d.success_status_code end,
          success_duration_ms = case when x.status = 'delivered' then x.duration_ms else d.success_duration_ms end
      from input x
      where d.id = x.id and d.claim_token = x.claim and d.id in (select id from locked)
      returning x.attempt_id, x.status
    )
    insert into webhook_attempts (id, delivery_id, attempted_at, status_code, error, duration_ms)
    select attempt_id, id, attempted_at, status_code, error, duration_ms from input
    where attempt_id not in (select attempt_id from moved where status = 'delivered')`);
}

/**
 * Auto-disable: of the given endpoints, switches off each one whose last `window` finished deliveries all failed
 * and span at least `minSpanMs` (from the oldest one's creation to the newest one's end), so a burst of failures
 * in a short outage never disables anything. Returns the endpoints it disabled.
 */
export async function disableFailing(
  db: Executor, endpoints: Array<{ accountId: string; event: WebhookEvent }>, rule: { window: number; minSpanMs: number; reason: string },
): Promise<Array<{ accountId: string; kind: string }>> {
  if (endpoints.length === 0) return [];
  const unique = [...new Map(endpoints.map((e) => [endpointKey(e.accountId, e.event), { account_id: e.accountId, event: e.event }])).values()];
  return rows<{ accountId: string; kind: string }>(db, sql`
    with e as (
      select * from jsonb_to_recordset(${JSON.stringify(unique)}::jsonb) as x(account_id uuid, event text)
    ), recent as (
      select e.account_id, e.event, l.status, l.created_at, l.completed_at
      from e cross join lateral (
        select d.status, d.created_at, d.completed_at from webhook_deliveries d
        where d.account_id = e.account_id and d.event = e.event and d.status <> 'pending'
        order by d.completed_at desc limit ${rule.window}) l
    ), verdict as (
      select account_id, event from recent group by account_id, event
      having count(*) = ${rule.window} and bool_and(status = 'failed')
         and max(completed_at) - min(created_at) >= ${rule.minSpanMs} * interval '1 millisecond'
    )
    update webhook_endpoints w
    set enabled = false, disabled_reason = ${rule.reason}, disabled_at = now(), updated_at = now()
    from verdict v
    where w.account_id = v.account_id and w.enabled
      and w.kind = ${kindOfEventSql(sql`v.event`)}
    returning w.account_id as "accountId", w.kind`);
}
