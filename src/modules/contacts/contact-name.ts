import { sql, type SQL } from 'drizzle-orm';

// Names are joined when read, never copied into message, inbox or opt-out rows: renaming or deleting a contact
// shows at once in every read. These are the two halves of that join, written once.

/** The name a read shows: the contact's first and last name; null when it has neither, or no contact matched. */
export const contactNameOf = (c: SQL = sql`contacts`) => sql<string | null>`nullif(trim(concat_ws(' ', ${c}.first_name, ${c}.last_name)), '')`;

/** The account's contact holding `phone`, if any: one probe of contacts_phone_idx (account_id, phone) per row. */
export const contactJoin = (c: SQL, accountId: SQL, phone: SQL) =>
  sql`left join contacts ${c} on ${c}.account_id = ${accountId} and ${c}.phone = ${phone}`;
