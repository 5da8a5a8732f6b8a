import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn, bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';
import { bytea, ts } from './columns.ts';


export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey(),
  parentId: uuid('parent_id'),
  businessName: text('business_name').notNull(),
  email: text('email'),
  abn: text('abn'),
  // The operator set `abn` (admin API): only then does it grant Sender IDs registered to that ABN. An ABN a parent
  // declares for its sub-account grants nothing (docs/decisions/0017-sender-ids-granted-by-the-operator.md).
  abnVerified: boolean('abn_verified').notNull().default(false),
  // The balance lives on the row so a debit is one conditional UPDATE; the ledger explains every change to it.
  credits: integer('credits').notNull().default(0),
  accountStatus: text('account_status').notNull().default('active'),
  hierarchyEnabled: boolean('hierarchy_enabled').notNull().default(false),
  dailyLimit: integer('daily_limit'),
  // Messages accepted on daily_day (Australia/Sydney). On the account row so the cap is checked and counted in
  // the same conditional UPDATE that debits credits: exact under any concurrency.
  dailyDay: date('daily_day'),
  dailyCount: integer('daily_count').notNull().default(0),
  managedByParent: boolean('managed_by_parent').notNull().default(true),
  teamAccessFromParent: boolean('team_access_from_parent').notNull().default(false),
  optoutExempt: boolean('optout_exempt').notNull().default(false),
  inheritParentSenders: boolean('inherit_parent_senders').notNull().default(false),
  settings: jsonb('settings').notNull().default({}),
  // operator setting: most dedicated numbers the account may hold; null means the service default (MAX_NUMBERS)
  maxNumbers: integer('max_numbers'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  closedAt: ts('closed_at'),
}, (t) => [
  check('accounts_credits_non_negative', sql`${t.credits} >= 0`),
  index('accounts_parent_idx').on(t.parentId, t.createdAt),
]);

export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  // SHA-256 of the whole key, hex. Keys carry 160 random bits, so an unsalted fast hash is the right tool.
  hash: text('hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  // What the key may do: read, send, billing, manage (platform/permissions.ts; migration 0027 gave `billing` to
  // every key that held `manage`).
  scopes: text('scopes').array().notNull().default(sql`'{read,send,billing,manage}'::text[]`),
  // The user the key belongs to: it carries at most their permissions and is cut down or revoked with them.
  createdByUser: uuid('created_by_user').references((): AnyPgColumn => accountUsers.id),
}, (t) => [
  index('api_keys_created_by_user_idx').on(t.createdByUser).where(sql`${t.createdByUser} is not null and ${t.revokedAt} is null`),
  uniqueIndex('api_keys_hash_idx').on(t.hash),
  index('api_keys_account_idx').on(t.accountId, t.createdAt),
]);

export const accountUsers = pgTable('account_users', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  email: text('email').notNull(),
  name: text('name'),
  // owner | admin | member (platform/permissions.ts): exactly one active owner per account that has users.
  role: text('role').notNull().default('member'),
  canSend: boolean('can_send').notNull().default(true),
  canBilling: boolean('can_billing').notNull().default(false),
  status: text('status').notNull().default('active'),
  source: text('source').notNull().default('direct'),
  createdAt: ts('created_at').notNull().defaultNow(),
  removedAt: ts('removed_at'),
  // Dashboard sign-in: Argon2id hash, null until the invite is accepted; the invite token's SHA-256.
  passwordHash: text('password_hash'),
  inviteHash: text('invite_hash'),
  inviteExpiresAt: ts('invite_expires_at'),
  // The optional TOTP second factor (migration 0020): sealed secret, enabled once confirmed, last accepted step.
  totpSecretSealed: bytea('totp_secret_sealed'),
  totpEnabledAt: ts('totp_enabled_at'),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
}, (t) => [
  uniqueIndex('account_users_invite_idx').on(t.inviteHash).where(sql`${t.inviteHash} is not null`),
  index('account_users_login_idx').on(sql`lower(${t.email})`).where(sql`${t.removedAt} is null`),
  uniqueIndex('account_users_email_idx').on(t.accountId, sql`lower(${t.email})`).where(sql`${t.removedAt} is null`),
  uniqueIndex('account_users_owner_idx').on(t.accountId).where(sql`${t.role} = 'owner' and ${t.removedAt} is null`),
  check('account_users_role_check', sql`${t.role} in ('owner', 'admin', 'member')`),
]);

export const creditLedger = pgTable('credit_ledger', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  // grant | admin | send | refund | allocate | recall | close — transfers carry the other side's account id.
  kind: text('kind').notNull(),
  delta: integer('delta').notNull(),
  balanceAfter: integer('balance_after').notNull(),
  messageId: uuid('message_id'),
  campaignId: uuid('campaign_id'),
  counterpartyId: uuid('counterparty_id'),
  // The order the balance moved in. created_at is the transaction's start, taken before the account row lock,
  // so two rows can share it or run backwards; the sequence is drawn by the INSERT that follows the locking
  // UPDATE (same statement), while the lock is held, so within an account it follows balance_after exactly.
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [
  // Refunds name their message; reports join them back. Send debits never need this lookup, so the index stays
  // out of the send path.
  index('credit_ledger_refund_idx').on(t.messageId).where(sql`${t.kind} = 'refund'`),
  // Reports: credits_consumed from the index alone (index-only scan); also every per-account, by-date read.
  index('credit_ledger_report_idx').on(t.accountId, t.createdAt, t.kind, t.delta),
]);

export const idempotencyKeys = pgTable('idempotency_keys', {
  accountId: uuid('account_id').notNull(),
  key: text('key').notNull(),
  route: text('route').notNull(),
  requestHash: text('request_hash').notNull(),
  // null while the first request is in flight
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  // the in-flight claim's lease, renewed while its request runs; a dead process's key is retaken after it
  leaseUntil: ts('lease_until'),
}, (t) => [
  primaryKey({ columns: [t.accountId, t.key] }),
  index('idempotency_keys_expiry_idx').on(t.expiresAt),
]);

/**
 * Debits that took a balance below its low_balance_threshold, written by the accounts_low_balance trigger in the
 * debit's transaction (migration 0034) and taken by the low-balance job, which emails each once.
 */
export const lowBalanceNotices = pgTable('low_balance_notices', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  balance: integer('balance').notNull(),
  threshold: integer('threshold').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
