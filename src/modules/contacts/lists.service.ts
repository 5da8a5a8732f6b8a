import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { addMembers, deleteList, findList, insertList, listLists, removeMembers, renameList, type ListRow } from './lists.repo.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const view = (r: ListRow) => ({ id: r.id, name: r.name, contact_count: r.contact_count, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

export function createListService(deps: { db: Db }) {
  const { db } = deps;

  async function get(actor: Actor, id: string) {
    const row = await findList(db, actor.accountId, id);
    if (!row) throw notFound('List');
    return view(row);
  }

  async function create(actor: Actor, input: { name: string }) {
    return get(actor, await insertList(db, actor.accountId, input.name.trim()));
  }

  const list = async (actor: Actor) => ({ lists: (await listLists(db, actor.accountId)).map(view) });

  async function rename(actor: Actor, id: string, input: { name: string }) {
    if (!(await renameList(db, actor.accountId, id, input.name.trim()))) throw notFound('List');
    return get(actor, id);
  }

  async function remove(actor: Actor, id: string) {
    if (!(await deleteList(db, actor.accountId, id))) throw notFound('List');
    return { ok: true };
  }

  /** Adds (or removes) contacts of the account; ids of other accounts' contacts change nothing. */
  async function members(actor: Actor, id: string, input: { contact_ids: string[] }, change: 'add' | 'remove') {
    await get(actor, id);
    const changed = change === 'add'
      ? await addMembers(db, actor.accountId, id, input.contact_ids)
      : await removeMembers(db, actor.accountId, id, input.contact_ids);
    return { ok: true, changed };
  }

  return { create, get, list, rename, remove, members };
}

export type ListService = ReturnType<typeof createListService>;
