import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { described, NonBlankName, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';

/** Largest CSV import: the rows of one request, read and written in one transaction. */
export const IMPORT_MAX_ROWS = 50_000;

const Phone = Type.String({ minLength: 1, maxLength: 40, description: 'A mobile number: E.164, international digits or local (read in the account\'s country)' });
const Name = (what: string) => Type.String({ maxLength: 200, description: what });
const Fields = Type.Record(Type.String({ minLength: 1, maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50, description: 'Custom merge fields (at most 50; keys up to 40 characters, values up to 500): {{key}} in a message sent to a list',
});

export const ContactView = Type.Object({
  id: described(Uuid, 'The contact\'s id'),
  phone: Type.String({ description: 'E.164' }),
  first_name: nullable(Type.String(), 'First name, or null'),
  last_name: nullable(Type.String(), 'Last name, or null'),
  email: nullable(Type.String(), 'Email, or null'),
  fields: Type.Record(Type.String(), Type.String(), { description: 'Custom merge fields' }),
  lists: Type.Array(Uuid, { description: 'The lists it belongs to' }),
  opted_out: Type.Boolean({ description: 'The number is on the account\'s opt-out list: sends to it are skipped (deleting the contact keeps the opt-out)' }),
  created_at: described(Timestamp, 'When it was added'),
  updated_at: described(Timestamp, 'When it was last changed'),
}, { description: 'A contact' });
export type ContactView = Static<typeof ContactView>;

export const CreateContact = Type.Object({
  phone: Phone,
  first_name: Type.Optional(nullable(Name('First name'))),
  last_name: Type.Optional(nullable(Name('Last name'))),
  email: Type.Optional(nullable(Type.String({ maxLength: 320, description: 'Email address' }))),
  fields: Type.Optional(Fields),
  lists: Type.Optional(Type.Array(Uuid, { maxItems: 100, description: 'Lists to add it to' })),
}, { description: 'The new contact' });
export type CreateContact = Static<typeof CreateContact>;

export const PatchContact = Type.Partial(Type.Omit(CreateContact, ['lists']), { description: 'The fields to change; fields replaces the custom fields whole' });
export type PatchContact = Static<typeof PatchContact>;

export const ContactQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of a name, or of the number (any form)' })),
  list_id: Type.Optional(described(Uuid, 'Only contacts in this list')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100 (default 50)' })),
  cursor: Type.Optional(Type.String({ maxLength: 100, description: 'next_cursor of the previous page' })),
});
export type ContactQuery = Static<typeof ContactQuery>;

export const ContactPage = Type.Object({
  contacts: Type.Array(ContactView, { description: 'The page, oldest first' }),
  next_cursor: nullable(Type.String(), 'Pass as cursor for the next page; null on the last page'),
}, { description: 'A page of contacts' });

export const ImportRequest = Type.Object({
  csv: Type.String({ minLength: 1, maxLength: 8_000_000, description: `CSV text with a header row, at most ${IMPORT_MAX_ROWS.toLocaleString('en-AU')} rows` }),
  columns: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 40 }), {
    description: 'Column mapping, header → phone, first_name, last_name, email, a custom field name, or "" to skip it. Unmapped columns: phone/mobile/number/to is the phone, first_name/last_name/email as named, any other a custom field',
  })),
  list_id: Type.Optional(described(Uuid, 'Add every imported contact to this list')),
}, { description: 'A CSV of contacts' });
export type ImportRequest = Static<typeof ImportRequest>;

export const ImportSummary = Type.Object({
  created: Type.Integer({ description: 'New contacts' }),
  updated: Type.Integer({ description: 'Existing contacts (same number) updated' }),
  opted_out: Type.Integer({ description: 'Imported contacts whose number is on the opt-out list: kept, marked, skipped on send' }),
  invalid: Type.Array(Type.Object({
    row: Type.Integer({ description: 'Row number in the file (the header is row 1)' }),
    phone: Type.String({ description: 'The number as given' }),
    reason: Type.String({ description: 'Why the row was not imported' }),
  }), { description: 'Rows not imported, with the reason' }),
}, { description: 'What the import did' });

export const ListView = Type.Object({
  id: described(Uuid, 'The list\'s id'),
  name: Type.String({ description: 'Its name' }),
  contact_count: Type.Integer({ description: 'Contacts in it' }),
  created_at: described(Timestamp, 'When it was made'),
  updated_at: described(Timestamp, 'When it was last renamed'),
}, { description: 'A contact list' });
export const ListBody = Type.Object({ name: NonBlankName }, { description: 'The list\'s name' });
export const ListPage = Type.Object({ lists: Type.Array(ListView, { description: 'The account\'s lists, oldest first' }) }, { description: 'The lists' });
export const MembersBody = Type.Object({
  contact_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, description: 'Contacts of this account' }),
}, { description: 'The contacts to add or remove' });
export const MembersResult = Type.Object({
  ok: Type.Boolean({ description: 'true: done' }),
  changed: Type.Integer({ description: 'Contacts added (or removed) now; ones already in (or not in) the list are not counted' }),
}, { description: 'The list is changed' });

const CONTACT_ID = '01938f50-1a2b-7c3d-8e4f-5a6b7c8d9e01';
export const LIST_ID = '01938f50-1a2b-7c3d-8e4f-5a6b7c8d9e02';
export const CONTACT_EXAMPLE = {
  id: CONTACT_ID, phone: '+61412345678', first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com', fields: { clinic: 'Manly' },
  lists: [LIST_ID], opted_out: false, created_at: '2026-11-20T03:15:42.118Z', updated_at: '2026-11-20T03:15:42.118Z',
};
export const LIST_EXAMPLE = { id: LIST_ID, name: 'Manly patients', contact_count: 412, created_at: '2026-11-20T03:15:42.118Z', updated_at: '2026-11-20T03:15:42.118Z' };
