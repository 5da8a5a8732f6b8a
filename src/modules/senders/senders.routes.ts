import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SenderService } from './senders.service.ts';
import type { SenderRequestService } from './sender-requests.service.ts';
import { REQUEST_EXAMPLE, SenderIdRequest, SenderIdRequestBody, SenderIdRequestList } from './sender-requests.schemas.ts';

export const SenderList = Type.Object({
  sender_ids: Type.Array(Type.String(), { description: 'Registered Sender IDs this account may send as' }),
}, { description: 'The usable Sender IDs' });

/** The services these routes call, and nothing else. */
export type SenderRoutesDeps = { senders: SenderService; senderRequests: SenderRequestService };

export const senderRoutes: FastifyPluginAsyncTypebox<SenderRoutesDeps> = async (app, { senders, senderRequests }) => {
  app.get('/senders', {
    config: { contract: { response: { sender_ids: ['HarbourDnt', 'HDGroup'] } }, scope: 'read' },
    schema: {
      tags: ['Account'], summary: 'The Sender IDs the account may use',
      description: 'The alphanumeric Sender IDs the account may put in sender: those the operator registered to its ABN, and its parent\'s when it inherits the parent\'s senders. Its dedicated numbers (GET /numbers) may be used too. Needs the read scope.',
      response: { 200: SenderList },
    },
  }, async (request) => senders.list(request.actor));

  app.post('/sender-ids', {
    config: {
      contract: { sample: { body: { sender_id: 'HarbourDnt', abn: '51 824 753 556', use_description: REQUEST_EXAMPLE.use_description } }, response: REQUEST_EXAMPLE, errors: ['conflict'] },
      scope: 'manage',
    },
    schema: {
      tags: ['Account'], summary: 'Ask the operator for an alphanumeric Sender ID',
      description: 'Requests a Sender ID (a brand name in sender) with the ABN it is registered to and what it is for. The operator checks the national register and approves it (it then appears in GET /senders and may be used) or rejects it with a reason; until then it grants nothing. The ABN must pass its checksum; a second request for a Sender ID still waiting answers 409 conflict. Needs the manage permission.',
      body: SenderIdRequestBody, response: { 201: SenderIdRequest },
    },
  }, async (request, reply) => reply.status(201).send(await senderRequests.request(request.actor, request.body)));

  app.get('/sender-ids', {
    config: { contract: { response: { requests: [REQUEST_EXAMPLE] } }, scope: 'read' },
    schema: {
      tags: ['Account'], summary: 'The account\'s Sender ID requests and their status',
      description: 'Every Sender ID the account asked for, newest first: requested (waiting for the operator), approved (usable, listed in GET /senders) or rejected with the reason. Needs the read scope.',
      response: { 200: SenderIdRequestList },
    },
  }, async (request) => senderRequests.list(request.actor));
};
