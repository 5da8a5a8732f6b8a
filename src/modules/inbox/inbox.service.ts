import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { InboxQuery as InboxQuerySchema } from './inbox.schemas.ts';
import { DEFAULT_CARRIER, type InboundSms } from '../../carrier/carrier.ts';
import { joinInboundParts } from '../../carrier/text.ts';
import type { Actor } from '../../platform/actor.ts';
import type { Db, Executor } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { normalisePhone } from '../../common/phone.ts';
import { addOptout, removeOptout } from '../optouts/optouts.service.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { containsPattern, parseIsoInstant } from '../../common/query-filters.ts';
import {
  countInbox, countUnread, firstSeen, holderOf, insertInbound, lastSenderAccount, listInbox, purgeFragments, repliedTo, sharedNumberSenders, storeFragment,
  type InboundRow, type InboxFilter,
} from './inbox.repo.ts';
import { isOptIn, isOptOut } from './optout-keywords.ts';

export interface InboxServiceDeps {
  db: Db;
  /** The service's shared numbers (SHARED_SENDER_AU / _NZ): replies to them are routed by conversation. */
  sharedSender: { AU: string; NZ: string };
  /** Called after a commit that recorded a webhook event (wakes the webhook worker). */
  onEvents?: () => void;
  /** INBOUND_DEDUP_SECONDS: an MO delivered again within this window is stored once (0: never deduplicated). */
  dedupSeconds?: number;
  /** In the transaction that stores an account's MO: the SMPP server queues it for the account's ESME. Unset when off. */
  onInbound?: (tx: Executor, row: { id: string; accountId: string; from: string; to: string; body: string }) => Promise<void>;
}

/**
 * What makes two MO deliveries the same message (decision 0068): SMPP 3.4 gives an MO no id, so
 * the carrier, the sender, the number, the text's octets (with their coding) and, for a part, its concatenation
 * reference, count and sequence; or the carrier's own id for the MO where its configuration names one.
 */
export function inboundFingerprint(sms: InboundSms, from: string, to: string): string {
  const carrier = sms.carrier ?? DEFAULT_CARRIER;
  const what = sms.vendorId !== undefined
    ? ['id', carrier, sms.vendorId]
    : ['mo', carrier, from, to, sms.part
      ? `${sms.part.coding}:${sms.part.octets.toString('hex')}|${sms.part.ref}|${sms.part.total}|${sms.part.seq}`
      : `text:${sms.text}`];
  return createHash('sha256').update(JSON.stringify(what)).digest('base64url');
}

export type InboxQuery = Static<typeof InboxQuerySchema>;

/**
 * An MO's numbers in the form the rest of Tasman stores them: E.164 when it is an AU/NZ mobile. The carrier
 * wrote the number, not an account, so a local form is whichever country's mobile it is (nothing is charged on
 * this reading).
 */
function canonical(number: string): string {
  const au = normalisePhone(number, 'AU');
  if (au.ok) return au.e164;
  const nz = normalisePhone(number, 'NZ');
  return nz.ok ? nz.e164 : number;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The message.inbound webhook body (interface document, Events). */
export function inboundEventBody(row: InboundRow) {
  return {
    event: 'message.inbound' as const,
    message_id: row.id,
    from: row.from,
    to: row.to,
    body: row.body,
    received_at: row.receivedAt.toISOString(),
    in_reply_to: row.inReplyTo,
    is_optout: row.isOptout,
    is_optin: row.isOptin,
  };
}

/**
 * Inbound (MO) messages from the carrier and the GET /inbox list. `receive` resolves only after commit: the
 * carrier acknowledges the SMSC then. Everything about one MO (its row, the opt-out, the webhook event, the
 * reassembly of its parts) is one transaction.
 */
export function createInboxService(deps: InboxServiceDeps) {
  const { db } = deps;
  const shared = new Set(Object.values(deps.sharedSender).map(canonical));

  async function route(from: string, to: string): Promise<string | null> {
    const holder = await holderOf(db, to);
    if (holder) return holder;
    return shared.has(to) ? lastSenderAccount(db, from, to) : null;
  }

  /**
   * Stores an MO. Returns the stored row, or null when it was one part of a message still incomplete. An SMSC
   * that resends a deliver_sm whose response was lost delivers it twice: MOs carry no identity to dedupe on,
   * so inbound is at least once (clients deduplicate on message_id, as the webhook contract says).
   */
  async function receive(sms: InboundSms): Promise<InboundRow | null> {
    const from = canonical(sms.from);
    const to = canonical(sms.to);
    // Routing reads committed history only, so it runs before the transaction and keeps it short.
    const accountId = await route(from, to);
    let recorded = false;
    const dedupSeconds = deps.dedupSeconds ?? 0;
    const stored = await db.transaction(async (tx) => {
      // A copy the SMSC resent (our deliver_sm_resp was lost) is acknowledged and not stored again.
      if (dedupSeconds > 0 && !(await firstSeen(tx, inboundFingerprint(sms, from, to), dedupSeconds))) return null;
      let text = sms.text;
      let receivedAt = sms.receivedAt;
      if (sms.part && sms.part.total > 1) {
        const whole = await storeFragment(tx, { from, to, ...sms.part, text: sms.text, receivedAt: sms.receivedAt });
        if (!whole) return null;
        text = joinInboundParts(whole.parts);
        receivedAt = whole.firstReceivedAt;
      }
      const optout = accountId !== null && isOptOut(text);
      const optin = accountId !== null && !optout && isOptIn(text);
      const record = async (owner: string | null) => {
        const id = uuidv7();
        const inReplyTo = owner ? await repliedTo(tx, owner, from, to, receivedAt) : null;
        const row = await insertInbound(tx, {
          id, accountId: owner, from, to, body: text, receivedAt, isOptout: optout, isOptin: optin, inReplyTo, carrier: sms.carrier ?? DEFAULT_CARRIER,
        });
        // The opt-out (or opt-in) is written before the event: a client that reacts to the webhook finds the list changed.
        const origin = { rawText: text, inboundMessageId: id, messageId: inReplyTo };
        if (optout && owner) await addOptout(tx, owner, from, 'keyword', origin);
        if (optin && owner) await removeOptout(tx, owner, from, 'keyword', origin);
        if (owner) await deps.onInbound?.(tx, { id, accountId: owner, from, to, body: text });
        if (owner && (await recordEvent(tx, { accountId: owner, event: 'message.inbound', messageId: row.id, body: inboundEventBody(row) })) !== null) recorded = true;
        return row;
      };
      const row = await record(accountId);
      // Reply routing gives a shared number's MO to the account that messaged the person last, so another tenant
      // could capture a STOP meant for the first by texting later: the STOP opts the person out for every account
      // that messaged them from this shared number within 30 days, each with its own inbox row and webhook.
      if (optout && accountId && shared.has(to)) {
        for (const other of await sharedNumberSenders(tx, from, to, receivedAt, accountId)) await record(other);
      }
      return row;
    });
    if (recorded) deps.onEvents?.();
    return stored;
  }

  async function list(actor: Actor, q: InboxQuery) {
    const limit = q.limit ?? 25;
    const offset = q.offset ?? 0;
    const date = (field: 'date_from' | 'date_to', edge: 'start' | 'end') => {
      const raw = q[field];
      if (raw === undefined || raw === '') return null;
      const parsed = parseIsoInstant(raw, edge);
      if (!parsed) {
        throw new AppError('validation_failed', `${field} must be an ISO 8601 date or date-time`, {
          details: [{ field, message: 'must be an ISO 8601 date or date-time' }],
        });
      }
      return parsed;
    };
    const filter: InboxFilter = {
      fromPattern: q.from && q.from.trim() !== '' ? containsPattern(q.from.trim()) : null,
      dateFrom: date('date_from', 'start'),
      dateTo: date('date_to', 'end'),
      unreadOnly: q.unread === true,
    };
    if (filter.dateFrom && filter.dateTo && filter.dateFrom > filter.dateTo) {
      throw new AppError('invalid_range', 'date_from is after date_to');
    }
    const [items, total, unreadTotal] = await Promise.all([
      listInbox(db, actor.accountId, filter, limit, offset),
      countInbox(db, actor.accountId, filter),
      countUnread(db, actor.accountId),
    ]);
    return {
      messages: items.map((r) => ({
        id: r.id,
        from: r.from_number,
        to: r.to_number,
        body: r.body,
        received_at: iso(r.received_at),
        in_reply_to: r.in_reply_to,
        is_optout: r.is_optout,
        is_optin: r.is_optin,
        direction: 'inbound' as const,
        sender: r.from_number,
        recipient: r.to_number,
        created_at: iso(r.received_at),
        reply_to_body: r.reply_to_body,
        campaign_id: r.campaign_id,
        status: 'received' as const,
        unread: r.unread,
        contact_name: r.contact_name,
      })),
      total,
      unread_total: unreadTotal,
      limit,
      offset,
    };
  }

  return {
    receive,
    list,
    purgeFragments: () => purgeFragments(db, deps.dedupSeconds ?? 0),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;

// Inbox reads other modules make: the inbound a reply answers, a number's holder, who shares a sender.
export { findInbound, holderOf, sharedNumberSenders } from './inbox.repo.ts';
