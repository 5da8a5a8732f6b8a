import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { UUID_PATTERN } from '../../platform/ids.ts';
import { sqlStateOf } from '../../platform/db/sql-state.ts';
import { invalidNumberMessage, normalisePhone } from '../../common/phone.ts';
import {
  countOptedOut, deleteContact, findContact, insertContact, listContacts, updateContact, upsertContacts, type ContactRow, type ContactValues,
} from './contacts.repo.ts';
import { addMembers, ownLists } from './lists.repo.ts';
import { IMPORT_MAX_ROWS, type ContactQuery, type ContactView, type CreateContact, type ImportRequest, type PatchContact } from './contacts.schemas.ts';
import { readImport } from './import.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const view = (r: ContactRow): ContactView => ({
  id: r.id, phone: r.phone, first_name: r.first_name, last_name: r.last_name, email: r.email, fields: r.fields, lists: r.lists,
  opted_out: r.opted_out, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});

const contactExists = (phone: string) => new AppError('contact_exists', `The account already has a contact with ${phone}`);
const UUID_RE = new RegExp(UUID_PATTERN);
const encodeCursor = (id: string) => Buffer.from(id).toString('base64url');
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString();
  if (!UUID_RE.test(id)) throw new AppError('validation_failed', 'cursor is not a next_cursor this service returned', { details: [{ field: 'cursor', message: 'invalid cursor' }] });
  return id;
}

export function createContactService(deps: { db: Db }) {
  const { db } = deps;

  function phoneOf(actor: Actor, raw: string): string {
    const phone = normalisePhone(raw, actor.account.settings.country);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(raw, phone.reason));
    return phone.e164;
  }

  async function get(actor: Actor, id: string): Promise<ContactView> {
    const row = await findContact(db, actor.accountId, id);
    if (!row) throw notFound('Contact');
    return view(row);
  }

  async function assertOwnLists(actor: Actor, listIds: string[]): Promise<void> {
    const own = await ownLists(db, actor.accountId, listIds);
    if (own.length !== new Set(listIds).size) throw notFound('List');
  }

  async function create(actor: Actor, input: CreateContact): Promise<ContactView> {
    const values: ContactValues = {
      phone: phoneOf(actor, input.phone), firstName: input.first_name ?? null, lastName: input.last_name ?? null, email: input.email ?? null, fields: input.fields ?? {},
    };
    const id = await db.transaction(async (tx) => {
      if (input.lists?.length) await assertOwnLists(actor, input.lists);
      const created = await insertContact(tx, actor.accountId, values);
      if (!created) throw contactExists(values.phone);
      for (const listId of new Set(input.lists ?? [])) await addMembers(tx, actor.accountId, listId, [created]);
      return created;
    });
    return get(actor, id);
  }

  async function list(actor: Actor, q: ContactQuery) {
    const limit = q.limit ?? 50;
    const digits = q.q?.replace(/\D/g, '').replace(/^0/, '');
    const found = await listContacts(db, actor.accountId, {
      text: q.q, digits: digits && digits.length >= 3 ? digits : undefined, listId: q.list_id, after: q.cursor ? decodeCursor(q.cursor) : undefined, limit: limit + 1,
    });
    const page = found.slice(0, limit);
    return { contacts: page.map(view), next_cursor: found.length > limit ? encodeCursor(page[page.length - 1]!.id) : null };
  }

  async function patch(actor: Actor, id: string, input: PatchContact): Promise<ContactView> {
    const changes: Partial<ContactValues> = {
      phone: input.phone === undefined ? undefined : phoneOf(actor, input.phone),
      firstName: input.first_name, lastName: input.last_name, email: input.email, fields: input.fields,
    };
    const found = await updateContact(db, actor.accountId, id, changes).catch((err: unknown) => {
      // The unique number per account: another contact has the new number.
      if (changes.phone && sqlStateOf(err) === '23505') throw contactExists(changes.phone);
      throw err;
    });
    if (!found) throw notFound('Contact');
    return get(actor, id);
  }

  async function remove(actor: Actor, id: string) {
    if (!(await deleteContact(db, actor.accountId, id))) throw notFound('Contact');
    return { ok: true };
  }

  /** POST /contacts/import: every valid row created or updated (and added to list_id), in one transaction. */
  async function importCsv(actor: Actor, input: ImportRequest) {
    const { contacts, invalid } = readImport(input.csv, actor.account.settings.country, IMPORT_MAX_ROWS, input.columns);
    return db.transaction(async (tx) => {
      if (input.list_id) await assertOwnLists(actor, [input.list_id]);
      const { created, ids } = await upsertContacts(tx, actor.accountId, contacts);
      if (input.list_id) {
        for (let i = 0; i < ids.length; i += 1000) await addMembers(tx, actor.accountId, input.list_id, ids.slice(i, i + 1000));
      }
      return { created, updated: ids.length - created, opted_out: await countOptedOut(tx, actor.accountId, ids), invalid };
    });
  }

  return { create, get, list, patch, remove, importCsv };
}

export type ContactService = ReturnType<typeof createContactService>;
