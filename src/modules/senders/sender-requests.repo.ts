import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { uuidv7 } from '../../platform/ids.ts';

export type RequestStatus = 'requested' | 'approved' | 'rejected';

export interface SenderRequestRow {
  id: string;
  account_id: string;
  sender_id: string;
  abn: string;
  use_description: string;
  status: RequestStatus;
  reason: string | null;
  registration_id: string | null;
  reviewed_at: Date | string | null;
  created_at: Date | string;
  business_name?: string;
}

const COLUMNS = sql`r.id, r.account_id, r.sender_id, r.abn, r.use_description, r.status, r.reason, r.registration_id, r.reviewed_at, r.created_at`;

/** A new request; null when the account has one open for this Sender ID (any case) already. */
export async function insertRequest(db: Executor, accountId: string, input: { senderId: string; abn: string; useDescription: string }): Promise<SenderRequestRow | null> {
  const [row] = await rows<SenderRequestRow>(db, sql`
    insert into sender_id_requests as r (id, account_id, sender_id, abn, use_description)
    values (${uuidv7()}, ${accountId}, ${input.senderId}, ${input.abn}, ${input.useDescription})
    on conflict (account_id, lower(sender_id)) where status = 'requested' do nothing
    returning ${COLUMNS}`);
  return row ?? null;
}

/** The account's requests, newest first (sender_id_requests_account_idx). */
export async function accountRequests(db: Executor, accountId: string): Promise<SenderRequestRow[]> {
  return rows<SenderRequestRow>(db, sql`
    select ${COLUMNS} from sender_id_requests r where r.account_id = ${accountId} order by r.created_at desc, r.id desc`);
}

/** The operator's view: requests of every account in a status (or all), oldest first, with the account's name. */
export async function requestsToReview(db: Executor, filter: { status: RequestStatus | null; limit: number; offset: number }): Promise<SenderRequestRow[]> {
  return rows<SenderRequestRow>(db, sql`
    select ${COLUMNS}, a.business_name from sender_id_requests r join accounts a on a.id = r.account_id
    ${filter.status === null ? sql`` : sql`where r.status = ${filter.status}`}
    order by r.created_at, r.id limit ${filter.limit} offset ${filter.offset}`);
}

export async function countToReview(db: Executor, status: RequestStatus | null): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`
    select count(*)::int as n from sender_id_requests r ${status === null ? sql`` : sql`where r.status = ${status}`}`);
  return row?.n ?? 0;
}

/** One request, locked for its review; null when there is none. */
export async function lockRequest(tx: Executor, id: string): Promise<SenderRequestRow | null> {
  const [row] = await rows<SenderRequestRow>(tx, sql`
    select ${COLUMNS}, a.business_name from sender_id_requests r join accounts a on a.id = r.account_id where r.id = ${id} for update of r`);
  return row ?? null;
}

export async function markReviewed(tx: Executor, id: string, review: { status: 'approved' | 'rejected'; reason: string | null; registrationId: string | null }): Promise<SenderRequestRow> {
  const [row] = await rows<SenderRequestRow>(tx, sql`
    update sender_id_requests r set status = ${review.status}, reason = ${review.reason}, registration_id = ${review.registrationId}, reviewed_at = now()
    from accounts a where r.id = ${id} and a.id = r.account_id
    returning ${COLUMNS}, a.business_name`);
  return row!;
}
