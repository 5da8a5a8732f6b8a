import { sql } from 'drizzle-orm';
import { preparedRows, type Executor } from '../../platform/db/client.ts';
import { senderExpression, senderParams, type RequestedSender } from '../senders/senders.repo.ts';
import { dailyCapAllows, dailyCapCount } from './daily-cap.ts';

/** One `/send`, ready to write: everything the statement needs, decided before it runs. */
export interface SingleSend {
  id: string;
  ledgerId: string;
  campaignId: string;
  accountId: string;
  /** the parent whose senders this account may use (inherit_parent_senders), else null */
  senderParentId: string | null;
  optoutExempt: boolean;
  recipient: string;
  country: string;
  body: string;
  parts: number;
  optoutCode: string | null;
  campaignName: string | null;
  /** the customer's key/value pairs, or null */
  metadata: Record<string, string> | null;
  /** send_at: the message waits as `scheduled` until then; null sends now */
  scheduledAt: string | null;
  requestedSender: RequestedSender;
  sharedSender: string;
  /** Australia/Sydney day, YYYY-MM-DD, for the daily cap */
  today: string;
}

export interface SendOutcome {
  ok: boolean;
  creditsAfter: number | null;
  creditsBefore: number;
  senderOk: boolean;
  optedOut: boolean;
  dailyExceeded: boolean;
}

// The shared send rules, applied to each request row (r) and its account (a): built once, they carry no values.
const SENDER = senderExpression({ accountId: sql`r.account_id`, parentId: sql`r.parent_id`, kind: sql`r.kind`, value: sql`r.value`, shared: sql`r.shared_sender` });
const COUNT_TODAY = dailyCapCount('a', sql`1`, sql`rs.today`);
const FITS_TODAY = dailyCapAllows('a', sql`1`, sql`rs.today`);

interface OutcomeRow {
  idx: number;
  credits_after: number | null;
  credits_before: number;
  sender_ok: boolean;
  opted_out: boolean;
  daily_exceeded: boolean;
}

/**
 * Any number of single sends, each for a different account, in ONE statement: per request it resolves the
 * sender, checks the opt-out list and the daily cap, debits the balance (a conditional UPDATE), rolls up the
 * named campaign, and writes the message and its ledger row. A request that fails a check writes nothing and
 * does not disturb the others. The statement commits atomically on its own, so a caller's 2xx always follows
 * its commit; the send service groups concurrent requests into one call (group commit).
 *
 * Accounts are locked in id order first, so two such statements running at once can never deadlock.
 * Callers must not pass two requests for one account: the campaign roll-up joins by account.
 */
export async function insertSingles(db: Executor, sends: SingleSend[]): Promise<SendOutcome[]> {
  // A plain literal per row, not a spread: V8 builds spread objects in a slow form, and stringifying them made
  // building this statement ten times slower (400 µs against 38 µs for 20 requests, measured in isolation).
  const payload = JSON.stringify(sends.map((s, idx) => ({
    kind: senderParams(s.requestedSender).kind, value: senderParams(s.requestedSender).value,
    idx, id: s.id, ledger_id: s.ledgerId, campaign_id: s.campaignId, account_id: s.accountId,
    parent_id: s.senderParentId, optout_exempt: s.optoutExempt, recipient: s.recipient, country: s.country,
    body: s.body, parts: s.parts, optout_code: s.optoutCode, campaign_name: s.campaignName,
    shared_sender: s.sharedSender, today: s.today, metadata: s.metadata, scheduled_at: s.scheduledAt,
  })));
  const found = await preparedRows<OutcomeRow>(db, sql`
    with r as (
      select * from jsonb_to_recordset(${payload}::jsonb) as r(
        idx int, id uuid, ledger_id uuid, campaign_id uuid, account_id uuid, parent_id uuid, optout_exempt boolean,
        recipient text, country text, body text, parts int, optout_code text, campaign_name text,
        kind text, value text, shared_sender text, today date, metadata jsonb, scheduled_at timestamptz)
    ),
    rs as (
      select r.*,
        ${SENDER} as sender,
        (not r.optout_exempt and exists (
          select 1 from optouts o where o.account_id = r.account_id and o.number = r.recipient)) as opted_out
      from r
    ),
    lck as (select a.id from accounts a where a.id in (select account_id from r) order by a.id for no key update),
    debit as (
      update accounts a set credits = a.credits - rs.parts, ${COUNT_TODAY}
      from rs
      where a.id = rs.account_id and a.id in (select id from lck)
        and rs.sender is not null and not rs.opted_out and a.credits >= rs.parts
        and ${FITS_TODAY}
      returning rs.idx, a.credits
    ),
    camp as (
      insert into campaigns (id, account_id, name, message_body, recipient_count, parts_per_message, total_credits)
      select rs.campaign_id, rs.account_id, rs.campaign_name, rs.body, 1, rs.parts, rs.parts
      from rs join debit d on d.idx = rs.idx where rs.campaign_name is not null
      on conflict (account_id, name) where name is not null do update
        set recipient_count = campaigns.recipient_count + 1,
            total_credits = campaigns.total_credits + excluded.total_credits
      returning id, account_id
    ),
    msg as (
      insert into messages (id, account_id, campaign_id, recipient, country, sender, body, parts, credits, optout_code, metadata, status, scheduled_at)
      select rs.id, rs.account_id, c.id, rs.recipient, rs.country, rs.sender, rs.body, rs.parts, rs.parts, rs.optout_code, rs.metadata,
             case when rs.scheduled_at is null then 'queued' else 'scheduled' end, rs.scheduled_at
      from rs join debit d on d.idx = rs.idx left join camp c on c.account_id = rs.account_id
    ),
    led as (
      insert into credit_ledger (id, account_id, kind, delta, balance_after, message_id, campaign_id)
      select rs.ledger_id, rs.account_id, 'send', -rs.parts, d.credits, rs.id, c.id
      from rs join debit d on d.idx = rs.idx left join camp c on c.account_id = rs.account_id
    )
    select rs.idx, d.credits as credits_after, a.credits as credits_before, rs.sender is not null as sender_ok,
           rs.opted_out,
           not ${FITS_TODAY} as daily_exceeded
    from rs join accounts a on a.id = rs.account_id left join debit d on d.idx = rs.idx`);
  const byIdx = new Map(found.map((row) => [row.idx, row]));
  return sends.map((_, idx) => {
    const row = byIdx.get(idx);
    if (!row) throw new Error('account vanished during send');
    return {
      ok: row.credits_after !== null,
      creditsAfter: row.credits_after,
      creditsBefore: row.credits_before,
      senderOk: row.sender_ok,
      optedOut: row.opted_out,
      dailyExceeded: row.daily_exceeded,
    };
  });
}
