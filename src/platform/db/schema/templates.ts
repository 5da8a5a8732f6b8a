import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accounts } from './accounts.ts';

// Saved message texts (modules/templates): /send and /send-batch take template_id instead of message.
export const templates = pgTable('templates', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  body: text('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [index('templates_account_idx').on(t.accountId, t.id)]);
