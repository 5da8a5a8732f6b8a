import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { described, IdParams, NonBlankName, Ok, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { TemplateService } from './templates.service.ts';

const tags = ['Templates'];
const Body = Type.String({ minLength: 1, maxLength: 10_000, description: 'The message text, with {{placeholders}} as in /send-batch' });
const TemplateView = Type.Object({
  id: described(Uuid, 'The template\'s id: template_id on /send and /send-batch'),
  name: Type.String({ description: 'Its name' }),
  body: Type.String({ description: 'Its text' }),
  created_at: described(Timestamp, 'When it was saved'),
  updated_at: described(Timestamp, 'When it was last changed'),
}, { description: 'A message template' });
export const TemplateList = Type.Object({ templates: Type.Array(TemplateView, { description: 'The templates' }) }, { description: 'The templates' });
const EXAMPLE = {
  id: '01938f50-1a2b-7c3d-8e4f-5a6b7c8d9e03', name: 'Appointment reminder', body: 'Hi {{first_name}}, see you {{when}}. Reply STOP to opt out.',
  created_at: '2026-11-20T03:15:42.118Z', updated_at: '2026-11-20T03:15:42.118Z',
};

/** The services these routes call, and nothing else. */
export type TemplateRoutesDeps = { templates: TemplateService };

// Saved message texts (an addition to the interface): /send and /send-batch take template_id instead of message.
export const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesDeps> = async (app, { templates }) => {
  app.post('/templates', {
    config: { contract: { sample: { body: { name: EXAMPLE.name, body: EXAMPLE.body } }, response: EXAMPLE }, scope: 'send' },
    schema: {
      tags, summary: 'Save a message template', description: 'Saves a named message text; /send and /send-batch send it with template_id instead of message. Needs the send scope.',
      body: Type.Object({ name: NonBlankName, body: Body }, { description: 'The template' }), response: { 201: TemplateView },
    },
  }, async (request, reply) => reply.status(201).send(await templates.create(request.actor, request.body)));

  app.get('/templates', {
    config: { contract: { response: { templates: [EXAMPLE] } }, scope: 'read' },
    schema: {
      tags, summary: 'The account\'s message templates', description: 'Every template of the account, in the order they were saved. Needs the read scope.',
      response: { 200: TemplateList },
    },
  }, async (request) => templates.list(request.actor));

  app.get('/templates/:id', {
    config: { contract: { response: EXAMPLE, errors: ['not_found'] }, scope: 'read' },
    schema: { tags, summary: 'A message template', description: 'One template. Another account\'s id answers 404. Needs the read scope.', params: IdParams, response: { 200: TemplateView } },
  }, async (request) => templates.get(request.actor, request.params.id));

  app.patch('/templates/:id', {
    config: { contract: { sample: { body: { body: 'Hi {{first_name}}, see you soon.' } }, response: EXAMPLE, errors: ['not_found'] }, scope: 'send' },
    schema: {
      tags, summary: 'Change a message template', description: 'Changes its name or text; messages already sent keep their text. Needs the send scope.',
      params: IdParams, body: Type.Object({ name: Type.Optional(NonBlankName), body: Type.Optional(Body) }, { description: 'The fields to change' }), response: { 200: TemplateView },
    },
  }, async (request) => templates.patch(request.actor, request.params.id, request.body));

  app.delete('/templates/:id', {
    config: { contract: { response: { ok: true }, errors: ['not_found'] }, scope: 'send' },
    schema: { tags, summary: 'Delete a message template', description: 'Deletes the template; messages sent with it keep their text. Needs the send scope.', params: IdParams, response: { 200: Ok } },
  }, async (request) => templates.remove(request.actor, request.params.id));
};
