import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, ts } from './columns.ts';


export const webhookEndpoints = pgTable('webhook_endpoints', {
  accountId: uuid('account_id').notNull(),
  // delivery_receipt | inbound
  kind: text('kind').notNull(),
  // without any credentials: those are in url_credentials_sealed
  url: text('url').notNull(),
  // AES-256-GCM sealed `user:password` of the URL (percent-encoded as given); null when it had none
  urlCredentialsSealed: bytea('url_credentials_sealed'),
  enabled: boolean('enabled').notNull().default(true),
  // AES-256-GCM sealed signing secret; null until the first rotation
  secretSealed: bytea('secret_sealed'),
  // after a rotation the previous secret also signs webhook-signature until previous_secret_until (24 h)
  previousSecretSealed: bytea('previous_secret_sealed'),
  previousSecretUntil: ts('previous_secret_until'),
  // set when the service switched the endpoint off (every delivery failing); PUT clears it
  disabledReason: text('disabled_reason'),
  disabledAt: ts('disabled_at'),
  // opt-in event types (message.click); null: the kind's own event only (outbox.ts DEFAULT_EVENTS)
  events: text('events').array(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.accountId, t.kind] })]);

// The outbox: one row per event, written in the same transaction as the receipt or inbound message. Vacuumed after
// 2% of dead rows, not the default 20%, like messages (migration 0022).
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull(),
  event: text('event').notNull(),
  messageId: uuid('message_id'),
  // the exact bytes POSTed on every attempt
  body: text('body').notNull(),
  // pending | delivered | failed
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  leaseUntil: ts('lease_until'),
  /** The fencing token of the claim that holds the row (platform/jobs/README.md). */
  claimToken: uuid('claim_token'),
  createdAt: ts('created_at').notNull().defaultNow(),
  completedAt: ts('completed_at'),
  // The successful attempt, recorded here instead of a webhook_attempts row (failed attempts are rows there);
  // null until one succeeds. A redelivery moves it into webhook_attempts.
  successAttemptedAt: ts('success_attempted_at'),
  successStatusCode: integer('success_status_code'),
  successDurationMs: integer('success_duration_ms'),
}, (t) => [
  index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  index('webhook_deliveries_account_idx').on(t.accountId, t.createdAt),
  index('webhook_deliveries_finished_idx').on(t.accountId, t.event, t.completedAt).where(sql`${t.status} <> 'pending'`),
  index('webhook_deliveries_message_idx').on(t.accountId, t.messageId).where(sql`${t.messageId} is not null`),
]);

export const webhookAttempts = pgTable('webhook_attempts', {
  id: uuid('id').primaryKey(),
  deliveryId: uuid('delivery_id').notNull(),
  attemptedAt: ts('attempted_at').notNull().defaultNow(),
  statusCode: integer('status_code'),
  error: text('error'),
  durationMs: integer('duration_ms').notNull(),
}, (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)]);
