import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { deleteTemplate, findTemplate, insertTemplate, listTemplates, updateTemplate, type TemplateRow } from './templates.repo.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const view = (r: TemplateRow) => ({ id: r.id, name: r.name, body: r.body, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

export function createTemplateService(deps: { db: Db }) {
  const { db } = deps;

  async function get(actor: Actor, id: string) {
    const row = await findTemplate(db, actor.accountId, id);
    if (!row) throw notFound('Template');
    return view(row);
  }

  const create = async (actor: Actor, input: { name: string; body: string }) => view(await insertTemplate(db, actor.accountId, { name: input.name.trim(), body: input.body }));
  const list = async (actor: Actor) => ({ templates: (await listTemplates(db, actor.accountId)).map(view) });

  async function patch(actor: Actor, id: string, input: { name?: string; body?: string }) {
    const row = await updateTemplate(db, actor.accountId, id, { name: input.name?.trim(), body: input.body });
    if (!row) throw notFound('Template');
    return view(row);
  }

  async function remove(actor: Actor, id: string) {
    if (!(await deleteTemplate(db, actor.accountId, id))) throw notFound('Template');
    return { ok: true };
  }

  /**
   * A send body with template_id becomes the same body with the template's text as message, before the send path
   * sees it (a send without template_id costs nothing here). Exactly one of message and template_id is given.
   */
  async function resolve<T extends { message?: string; template_id?: string }>(actor: Actor, body: T): Promise<Omit<T, 'template_id'> & { message: string }> {
    const { template_id: templateId, ...rest } = body;
    if (templateId === undefined) {
      if (rest.message === undefined) throw new AppError('validation_failed', 'Give message or template_id', { details: [{ field: 'message', message: 'is required without template_id' }] });
      return rest as Omit<T, 'template_id'> & { message: string };
    }
    if (rest.message !== undefined) throw new AppError('validation_failed', 'Give message or template_id, not both', { details: [{ field: 'template_id', message: 'cannot be given with message' }] });
    const row = await findTemplate(db, actor.accountId, templateId);
    if (!row) throw notFound('Template');
    return { ...rest, message: row.body } as Omit<T, 'template_id'> & { message: string };
  }

  return { create, get, list, patch, remove, resolve };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
