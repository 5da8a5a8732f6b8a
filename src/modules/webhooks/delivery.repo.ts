import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import type { WebhookEvent } from './outbox.ts';

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
  /** The lease as PostgreSQL text; handed back on completion as a fencing token. */
  lease: string;
  /** The endpoint as it is now (the URL, switch and secret at send time), null when it no longer exists. */
  url: string | null;
  enabled: boolean | null;
  secretSealed: Uint8Array | null;
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
};

/**
 * Claims due deliveries with FOR UPDATE SKIP LOCKED and leases them (next_attempt_at moves to the lease expiry,
 * so a crashed worker's rows come back by themselves). Rows of endpoints with no room are skipped, and at most
 * `room` rows of each endpoint are taken, so one slow endpoint's backlog cannot fill the pool.
 */
export async function claimDue(db: Executor, input: ClaimInput): Promise<ClaimedDelivery[]> {
  const room = JSON.stringify(input.room);
  const found = await rows<ClaimedDelivery>(db, sql`
    with due as (
      select id, account_id, event, next_attempt_at from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now()
        and coalesce((${room}::jsonb ->> (account_id::text || '|' || event))::int, ${input.cap}) > 0
      order by next_attempt_at
      limit ${input.scan}
      for update skip locked
    ), ranked as (
      select id, account_id, event, next_attempt_at,
             row_number() over (partition by account_id, event order by next_attempt_at, id) as rn
      from due
    ), picked as (
      select id, account_id, event from ranked
      where rn <= coalesce((${room}::jsonb ->> (account_id::text || '|' || event))::int, ${input.cap})
      order by next_attempt_at
      limit ${input.want}
    )
    update webhook_deliveries d
    set lease_until = date_trunc('milliseconds', now()) + ${input.leaseMs} * interval '1 millisecond',
        next_attempt_at = date_trunc('milliseconds', now()) + ${input.leaseMs} * interval '1 millisecond'
    from picked
    left join webhook_endpoints e on e.account_id = picked.account_id
      and e.kind = case picked.event when 'message.dlr' then 'delivery_receipt' else 'inbound' end
    where d.id = picked.id
    returning d.id, d.account_id as "accountId", d.event, d.body, d.attempts, d.lease_until::text as lease,
              e.url, e.enabled, e.secret_sealed as "secretSealed"`);
  return found;
}

export type AttemptOutcome = {
  id: string;
  lease: string;
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
 * delivery moves on only if this worker still holds its lease, so a worker whose lease ran out cannot overwrite
 * the outcome of the worker that took over.
 */
export async function completeAttempts(db: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const input = JSON.stringify(outcomes.map((o) => ({
    id: o.id, lease: o.lease, attempt_id: o.attemptId, attempted_at: o.attemptedAt.toISOString(),
    status_code: o.statusCode, error: o.error, duration_ms: o.durationMs, status: o.status,
    next_at: o.nextAt ? o.nextAt.toISOString() : null,
  })));
  await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as x(
        id uuid, lease text, attempt_id uuid, attempted_at timestamptz, status_code int, error text,
        duration_ms int, status text, next_at timestamptz)
    ), moved as (
      update webhook_deliveries d
      set status = x.status,
          attempts = d.attempts + 1,
          next_attempt_at = coalesce(x.next_at, d.next_attempt_at),
          lease_until = null,
          completed_at = case when x.status = 'pending' then null else now() end
      from input x
      where d.id = x.id and d.lease_until = x.lease::timestamptz
      returning d.id
    )
    insert into webhook_attempts (id, delivery_id, attempted_at, status_code, error, duration_ms)
    select attempt_id, id, attempted_at, status_code, error, duration_ms from input`);
}
