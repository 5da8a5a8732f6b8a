import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accounts, accountUsers } from './accounts.ts';

// What a customer's own SMPP client (an ESME) binds with to Tasman's SMPP server (docs/smpp-server.md).
export const smppCredentials = pgTable('smpp_credentials', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  // the bind's system_id: generated, unique across the service (a bind names no account)
  systemId: text('system_id').notNull(),
  // SHA-256 of system_id, NUL, password (modules/smpp-credentials/credential-secret.ts)
  passwordHash: text('password_hash').notNull(),
  // CIDR blocks a bind may come from; empty: any address
  allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
  maxBinds: integer('max_binds').notNull(),
  tps: integer('tps').notNull(),
  createdByUser: uuid('created_by_user').references((): AnyPgColumn => accountUsers.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
  lastBoundAt: ts('last_bound_at'),
}, (t) => [
  uniqueIndex('smpp_credentials_system_id_idx').on(t.systemId),
  index('smpp_credentials_account_idx').on(t.accountId, t.createdAt),
]);
