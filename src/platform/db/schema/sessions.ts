import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accountUsers } from './accounts.ts';


/** A signed-in browser: an account user's, or the operator's. The cookie holds the token; only its hash is here. */
export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id').references(() => accountUsers.id),
  // The operator token's hash at sign-in: changing TASMAN_ADMIN_TOKEN ends every operator session.
  operatorTokenHash: text('operator_token_hash'),
  csrfToken: text('csrf_token').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
}, (t) => [
  index('sessions_user_idx').on(t.userId),
  check('sessions_kind_check', sql`${t.kind} in ('user', 'operator')`),
]);

/** Failed sign-ins per (lower-cased) email, for the lockout; rows older than the window are deleted as we go. */
export const loginFailures = pgTable('login_failures', {
  email: text('email').notNull(),
  failedAt: ts('failed_at').notNull().defaultNow(),
}, (t) => [index('login_failures_email_idx').on(t.email, t.failedAt)]);

export const loginLocks = pgTable('login_locks', {
  email: text('email').primaryKey(),
  lockedUntil: ts('locked_until').notNull(),
});

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
