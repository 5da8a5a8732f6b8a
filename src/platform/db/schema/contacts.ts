import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { accounts } from './accounts.ts';

// An account's address book (modules/contacts). A phone number is one contact per account; whether it opted out
// is read from `optouts` (never copied here), so deleting a contact leaves the opt-out where it was.
export const contacts = pgTable('contacts', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  // E.164, as the send path stores recipients
  phone: text('phone').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  email: text('email'),
  // custom merge fields: an object of string values
  fields: jsonb('fields').notNull().default(sql`'{}'::jsonb`),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('contacts_phone_idx').on(t.accountId, t.phone),
  index('contacts_account_idx').on(t.accountId, t.id),
]);

export const contactLists = pgTable('contact_lists', {
  id: uuid('id').primaryKey(),
  accountId: uuid('account_id').notNull().references(() => accounts.id),
  name: text('name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [index('contact_lists_account_idx').on(t.accountId, t.id)]);

export const contactListMembers = pgTable('contact_list_members', {
  listId: uuid('list_id').notNull().references(() => contactLists.id, { onDelete: 'cascade' }),
  contactId: uuid('contact_id').notNull().references(() => contacts.id, { onDelete: 'cascade' }),
  addedAt: ts('added_at').notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.listId, t.contactId] }),
  index('contact_list_members_contact_idx').on(t.contactId),
]);
