import { sql } from 'drizzle-orm';
import {
  boolean, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accounts } from './accounts.ts';


export const campaigns = pgTable('campaigns', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  // null for batches sent without a name; a name groups /send calls (unique per account)
  name: text('name'),
  messageBody: text('message_body'),
  recipientCount: integer('recipient_count').notNull().default(0),
  partsPerMessage: integer('parts_per_message').notNull().default(1),
  totalCredits: integer('total_credits').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('campaigns_name_idx').on(t.accountId, t.name).where(sql`${t.name} is not null`),
  index('campaigns_account_idx').on(t.accountId, t.createdAt),
]);

// Also the dispatcher's work queue: vacuumed after 2% of dead rows, not the default 20% (migration 0022); fillfactor
// 70 (migration 0039) leaves room on each page for the HOT updates of claims and lease renewals (decision 0078).
export const messages = pgTable('messages', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  campaignId: uuid('campaign_id'),
  recipient: text('recipient').notNull(),
  country: text('country').notNull(),
  sender: text('sender').notNull(),
  // null once the retention job has removed the content
  body: text('body'),
  parts: integer('parts').notNull(),
  credits: integer('credits').notNull(),
  // queued → sent → delivered | failed (failed also straight from queued when the SMSC refuses it)
  status: text('status').notNull().default('queued'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
  // dispatcher bookkeeping
  attempts: smallint('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  leaseUntil: ts('lease_until'),
  /** The fencing token of the claim that holds the row (platform/jobs/README.md). */
  claimToken: uuid('claim_token'),
  smscMessageId: text('smsc_message_id'),
  // the carrier that gave smsc_message_id: ids are unique only per SMSC, and only for a while
  smscCarrier: text('smsc_carrier'),
  // which of that carrier's binds it went through (0-based; null before several binds existed)
  smscBind: smallint('smsc_bind'),
  errorCode: text('error_code'),
  // final receipt
  dlrStatus: text('dlr_status'),
  dlrReceivedAt: ts('dlr_received_at'),
  dlrErrorCode: text('dlr_error_code'),
  // the latest non-final receipt (ENROUTE, an intermediate notification) while no final one has come
  intermediateReceipt: jsonb('intermediate_receipt').$type<{ status: 'enroute'; detail: string | null; error_code: string | null; received_at: string }>(),
  // one-tap opt-out link code, when the body used {{OptOutLink}}
  optoutCode: text('optout_code'),
  contentDeletedAt: ts('content_deleted_at'),
  // the customer's own key/value pairs (at most 10 strings), echoed in reads and the message.dlr webhook
  metadata: jsonb('metadata').$type<Record<string, string>>(),
  // send_at: the message is `scheduled` until then, and released to `queued` by the scheduler job
  scheduledAt: ts('scheduled_at'),
  // one part of a customer's own long message (SMPP server): its concatenation fields are in smpp_parts
  customerPart: boolean('customer_part').notNull().default(false),
  // it carries its customer's own validity period (SMPP server), in smpp_validity: the claim reads it for these alone
  customerValidity: boolean('customer_validity').notNull().default(false),
}, (t) => [
  index('messages_campaign_idx').on(t.campaignId, t.id).where(sql`${t.campaignId} is not null`),
  // The dispatcher's queue: only queued rows are in it, so it stays small however large the table grows.
  index('messages_queue_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
  // The expiry job's queue: sent messages still waiting for a receipt.
  index('messages_awaiting_receipt_idx').on(t.sentAt).where(sql`${t.status} = 'sent'`),
  index('messages_smsc_id_idx').on(t.smscMessageId).where(sql`${t.smscMessageId} is not null`),
  // in_reply_to and shared-number routing: the latest message from a sender to a number
  index('messages_conversation_idx').on(t.recipient, t.sender, t.createdAt),
  uniqueIndex('messages_optout_code_idx').on(t.optoutCode).where(sql`${t.optoutCode} is not null`),
  index('messages_retention_idx').on(t.createdAt).where(sql`${t.body} is not null`),
  // Reports: every counter of an unfiltered report comes from the index alone (index-only scan), so a 90-day group
  // report reads no table pages (bench/reports.ts measures it). Also serves every per-account, by-date read
  // (it begins with account_id, created_at), so no separate index on those two is kept: one fewer write per send.
  index('messages_report_idx').on(t.accountId, t.createdAt, t.status, t.parts, t.sentAt),
  // GET /messages?status=failed: failures are rare, so walking the report index for them could read the whole
  // account. Rows enter this index only when they fail, so sends pay nothing for it.
  // The scheduler's queue: only scheduled rows are in it.
  index('messages_scheduled_idx').on(t.scheduledAt).where(sql`${t.status} = 'scheduled'`),
  index('messages_failed_idx').on(t.accountId, t.createdAt).where(sql`${t.status} = 'failed'`),
  // GET /messages?status=cancelled: rows enter it only when a scheduled message is withdrawn.
  index('messages_cancelled_idx').on(t.accountId, t.createdAt).where(sql`${t.status} = 'cancelled'`),
]);

// GET /messages and its export, for filters that match few messages (a number fragment, text, a Sender ID): a
// lookup within the account instead of a walk of it (pg_trgm, btree_gin; decision 0087). Insert-only: a trigger on
// messages writes each message's row once (migration 0046), so the delivery path's updates never touch its index;
// retention clears its body with the message's. No foreign key: triggers delete a row with its message (decision
// 0089), so an insert takes no lock on the message it copies.
export const messageSearch = pgTable('message_search', {
  messageId: uuid('message_id').primaryKey(),
  accountId: uuid('account_id').notNull(),
  recipient: text('recipient').notNull(),
  sender: text('sender').notNull(),
  body: text('body'),
}, (t) => [
  index('message_search_idx').using('gin', t.accountId, sql`lower(${t.sender})`, t.recipient.op('gin_trgm_ops'), t.body.op('gin_trgm_ops')),
]);

export const inboundMessages = pgTable('inbound_messages', {
  id: uuid('id').primaryKey(),
  // null when no account could be found for the receiving number and sender
  accountId: uuid('account_id'),
  from: text('from_number').notNull(),
  to: text('to_number').notNull(),
  body: text('body'),
  receivedAt: ts('received_at').notNull().defaultNow(),
  inReplyTo: uuid('in_reply_to'),
  isOptout: boolean('is_optout').notNull().default(false),
  // START, UNSTOP or SUBSCRIBE as the first word: the sender's opt-out was removed
  isOptin: boolean('is_optin').notNull().default(false),
  // the SMSC's identity of the MO (for dedupe of a deliver_sm resent after a crash)
  carrierRef: text('carrier_ref'),
  // the carrier it arrived from (TASMAN_CARRIERS id; `default` for the single SMPP_* link)
  carrier: text('carrier'),
  contentDeletedAt: ts('content_deleted_at'),
  // null while unread: set only by an explicit mark-read call, never by listing (client libraries poll GET /inbox)
  readAt: ts('read_at'),
}, (t) => [
  index('inbound_account_received_idx').on(t.accountId, t.receivedAt),
  index('inbound_unread_idx').on(t.accountId, t.receivedAt).where(sql`${t.readAt} is null`),
  index('inbound_conversation_idx').on(t.accountId, t.from, t.receivedAt),
  uniqueIndex('inbound_carrier_ref_idx').on(t.carrierRef).where(sql`${t.carrierRef} is not null`),
  index('inbound_retention_idx').on(t.receivedAt).where(sql`${t.body} is not null`),
]);

// Parts of a multi-part MO waiting for their siblings; kept in the database so an acknowledged part survives a crash.
export const inboundFragments = pgTable('inbound_fragments', {
  from: text('from_number').notNull(),
  to: text('to_number').notNull(),
  ref: integer('ref').notNull(),
  total: smallint('total').notNull(),
  seq: smallint('seq').notNull(),
  // the part decoded alone; the whole message is decoded from the joined octets (a character can straddle parts)
  text: text('text').notNull(),
  // the part's text octets in hex, and their coding (gsm | ucs2 | latin1); null for parts stored before them
  octetsHex: text('octets_hex'),
  coding: text('coding'),
  receivedAt: ts('received_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.from, t.to, t.ref, t.seq] })]);

// MO messages stored in the last INBOUND_DEDUP_SECONDS, by fingerprint (inbox.service.ts): a resent MO is stored once.
export const inboundSeen = pgTable('inbound_seen', {
  fingerprint: text('fingerprint').primaryKey(),
  receivedAt: ts('received_at').notNull().defaultNow(),
}, (t) => [index('inbound_seen_received_at_idx').on(t.receivedAt)]);

// Every segment of a concatenated outbound message: each segment gets its own SMSC id and its own receipt, so
// any of them must lead back to the message (the first segment's id is also messages.smsc_message_id).
export const messageSegments = pgTable('message_segments', {
  carrier: text('carrier').notNull().default('default'),
  smscMessageId: text('smsc_message_id').notNull(),
  messageId: uuid('message_id').notNull(),
  seq: smallint('seq').notNull(),
  // the carrier's bind it went through (0-based; null before several binds existed)
  bind: smallint('bind'),
  // the segment's final receipt state; the message is delivered once every segment is
  dlrStatus: text('dlr_status'),
}, (t) => [
  primaryKey({ columns: [t.carrier, t.smscMessageId] }),
  index('message_segments_message_idx').on(t.messageId),
]);

// A receipt that arrived before its submit_sm_resp, parked until the SMSC message id is known.
export const pendingReceipts = pgTable('pending_receipts', {
  carrier: text('carrier').notNull().default('default'),
  smscMessageId: text('smsc_message_id').notNull(),
  receipt: jsonb('receipt').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
  // the handset it reports on, as its key (the last eight digits of the deliver_sm's source_addr, receipts/handset.ts):
  // a resent message's first copy is found by it
  recipient: text('recipient'),
  // the id's other readings while the carrier has not learnt its id forms (hex or decimal)
  otherIds: text('other_ids').array(),
}, (t) => [
  primaryKey({ columns: [t.carrier, t.smscMessageId] }),
  index('pending_receipts_recipient_idx').on(t.carrier, t.recipient).where(sql`${t.recipient} is not null`),
  index('pending_receipts_other_ids_idx').using('gin', t.otherIds).where(sql`${t.otherIds} is not null`),
]);

export const optouts = pgTable('optouts', {
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  number: text('number').notNull(),
  // keyword (a reply) | link | api
  source: text('source').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  // the reply that caused it (keyword), and the outbound message it answered (keyword: in_reply_to; link: the
  // message carrying the link)
  inboundMessageId: uuid('inbound_message_id'),
  messageId: uuid('message_id'),
}, (t) => [
  primaryKey({ columns: [t.accountId, t.number] }),
  index('optouts_created_idx').on(t.accountId, t.createdAt),
]);

// Every opt-out and opt-in ever recorded, never deleted: the proof that opt-outs were honoured (GET
// /optouts/export). Written by the same statement that changes the optouts list.
export const optoutEvents = pgTable('optout_events', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  number: text('number').notNull(),
  // optout | optin
  action: text('action').notNull(),
  // keyword | link | api
  source: text('source').notNull(),
  rawText: text('raw_text'),
  inboundMessageId: uuid('inbound_message_id'),
  messageId: uuid('message_id'),
  // who removed (or added) it by hand: a signed-in user, or an API key (neither for the operator or a keyword)
  actorUserId: uuid('actor_user_id'),
  actorKeyId: uuid('actor_key_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [index('optout_events_account_idx').on(t.accountId, t.createdAt)]);

export const senderIds = pgTable('sender_ids', {
  id: uuid('id').primaryKey(),
  senderId: text('sender_id').notNull(),
  abn: text('abn').notNull(),
  // The account the operator registered it to (it and its sub-accounts with inherit_parent_senders may use it);
  // null: every account whose ABN the operator set to `abn` (accounts.abn_verified). One row per account.
  accountId: uuid('account_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('sender_ids_unique_idx').on(sql`lower(${t.senderId})`, t.abn, sql`coalesce(${t.accountId}, '00000000-0000-0000-0000-000000000000'::uuid)`)]);

export const numbers = pgTable('numbers', {
  id: uuid('id').primaryKey(),
  number: text('number').notNull(),
  country: text('country').notNull(),
  priceMonthly: numeric('price_monthly', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
  // the holder; null while the number is in the operator's pool
  accountId: uuid('account_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  assignedAt: ts('assigned_at'),
  // the holder's own name for it (POST /numbers/purchase label); cleared when the number returns to the pool
  label: text('label'),
  // rental: paid up to paid_until; unpaid_since starts the 7-day grace after a renewal could not be paid
  paidUntil: ts('paid_until'),
  unpaidSince: ts('unpaid_since'),
}, (t) => [
  uniqueIndex('numbers_number_idx').on(t.number),
  index('numbers_account_idx').on(t.accountId, t.number),
  index('numbers_pool_idx').on(t.country, t.number).where(sql`${t.accountId} is null`),
  index('numbers_renewal_idx').on(t.paidUntil).where(sql`${t.accountId} is not null`),
]);

// Short links: each URL of a message sent with link tracking, written by the send statement.
export const messageLinks = pgTable('message_links', {
  // 8 base62 characters: the path after OPTOUT_LINK_BASE (opt-out codes there have 7)
  code: text('code').primaryKey(),
  accountId: uuid('account_id').notNull(),
  messageId: uuid('message_id').notNull(),
  // the URL's place in the message, from 0
  position: smallint('position').notNull(),
  // the original URL; null once the message's content is past retention (the link then answers 404)
  url: text('url'),
  clicks: integer('clicks').notNull().default(0),
  firstClickedAt: ts('first_clicked_at'),
  lastClickedAt: ts('last_clicked_at'),
}, (t) => [index('message_links_message_idx').on(t.accountId, t.messageId, t.position)]);

// An account's request for a Sender ID: `requested` until the operator approves it (registering it in sender_ids,
// `registration_id`) or rejects it (`reason`).
export const senderIdRequests = pgTable('sender_id_requests', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  senderId: text('sender_id').notNull(),
  abn: text('abn').notNull(),
  useDescription: text('use_description').notNull(),
  status: text('status').notNull().default('requested'),
  reason: text('reason'),
  registrationId: uuid('registration_id'),
  reviewedAt: ts('reviewed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [
  index('sender_id_requests_account_idx').on(t.accountId, t.createdAt),
  index('sender_id_requests_status_idx').on(t.status, t.createdAt),
  uniqueIndex('sender_id_requests_open_idx').on(t.accountId, sql`lower(${t.senderId})`).where(sql`${t.status} = 'requested'`),
]);
