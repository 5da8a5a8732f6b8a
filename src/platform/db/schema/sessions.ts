import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accountUsers } from './accounts.ts';


/** A signed-in browser: an account user's, or the operator's. The cookie holds the token; only its hash is here. */
export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id').references(() => accountUsers.id),
  // The operator token's hash at sign-in: changing TASMAN_ADMIN_TOKEN ends every operator session.
  operatorTokenHash: text('operator_token_hash'),
  // A named operator's console session (operators.id; signed in with their password and code); null otherwise.
  operatorId: uuid('operator_id'),
  csrfToken: text('csrf_token').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
}, (t) => [
  index('sessions_user_idx').on(t.userId),
  check('sessions_kind_check', sql`${t.kind} in ('user', 'operator')`),
]);

/** Failed authentication attempts per key (address, email, device cookie) without Redis (migration 0024). */
export const authFailures = pgTable('auth_failures', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  failures: integer('failures').notNull(),
  lastFailedAt: ts('last_failed_at').notNull(),
}, (t) => [index('auth_failures_last_idx').on(t.lastFailedAt)]);

/** One-time recovery codes of a user's second factor, as SHA-256 (migration 0020). */
export const userRecoveryCodes = pgTable('user_recovery_codes', {
  userId: uuid('user_id').notNull().references(() => accountUsers.id),
  codeHash: text('code_hash').notNull(),
  usedAt: ts('used_at'),
}, (t) => [primaryKey({ columns: [t.userId, t.codeHash] })]);

/** A password accepted for a user with a second factor, waiting for the code (the token's hash only). */
export const loginChallenges = pgTable('login_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id').notNull().references(() => accountUsers.id),
  email: text('email').notNull(),
  expiresAt: ts('expires_at').notNull(),
}, (t) => [index('login_challenges_expires_idx').on(t.expiresAt)]);

/** Mail waiting to be sent, or kept for the operator without SMTP_URL (migration 0028). */
export const emailOutbox = pgTable('email_outbox', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id'),
  kind: text('kind').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
});

/** Password reset links, as the token's SHA-256: one use, an hour (migration 0028). */
export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id').notNull().references(() => accountUsers.id),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
}, (t) => [index('password_resets_user_idx').on(t.userId)]);
