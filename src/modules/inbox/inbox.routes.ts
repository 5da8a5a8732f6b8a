import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { InboxService } from './inbox.service.ts';
import type { ConversationService } from './conversations.service.ts';
import {
  Conversation, CONVERSATION_EXAMPLE, ConversationParams, ConversationQuery, INBOX_EXAMPLE, InboxList, InboxQuery, ReadResult,
} from './inbox.schemas.ts';

const tags = ['Inbound and opt-outs'];

/** The services these routes call, and nothing else. */
export type InboxRoutesDeps = { inbox: InboxService; conversations: ConversationService };

export const inboxRoutes: FastifyPluginAsyncTypebox<InboxRoutesDeps> = async (app, { inbox, conversations }) => {
  app.get('/inbox', {
    config: { contract: { errors: ['invalid_range'], response: INBOX_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'Replies received, newest first', querystring: InboxQuery,
      description: 'Messages received on the account\'s numbers, newest first, with the outbound message each appears to answer and whether it is unread (unread_total counts the account\'s unread messages; unread=true lists only those). Listing never marks anything read: POST /inbox/{id}/read and /conversations/{number}/read do. Opt-out and opt-in keywords are listed too, flagged; they have already changed the opt-out list. The message.inbound webhook pushes each one as it arrives. A date_from after date_to answers 400 invalid_range. Needs the read scope.',
      response: { 200: InboxList },
    },
  }, async (request) => inbox.list(request.actor, request.query));

  app.post('/inbox/:id/read', {
    config: { contract: { errors: ['not_found'], response: { ok: true, marked: 1, unread_total: 0 } }, scope: 'send' },
    schema: {
      tags, summary: 'Mark an inbound message read',
      description: 'Marks one inbound message read (unread false in GET /inbox); marked says whether this call changed it, so a repeat is safe. Answers the account\'s unread_total after it. Another account\'s id answers 404. Needs the send scope, like replying.',
      params: IdParams, response: { 200: ReadResult },
    },
  }, async (request) => conversations.read(request.actor, request.params.id));

  app.get('/conversations/:number', {
    config: { contract: { response: CONVERSATION_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'The conversation with one number: both ways, in time order',
      description: 'The latest messages the account sent to a number and received from it, oldest first, with the name the account gave it (its contact\'s name, else the name metadata of a message to it) and how many of its messages are unread. Reading it marks nothing read. Needs the read scope.',
      params: ConversationParams, querystring: ConversationQuery, response: { 200: Conversation },
    },
  }, async (request) => conversations.get(request.actor, request.params.number, request.query));

  app.post('/conversations/:number/read', {
    config: { contract: { response: { ok: true, marked: 2, unread_total: 0 } }, scope: 'send' },
    schema: {
      tags, summary: 'Mark every message from a number read',
      description: 'Marks every unread inbound message from the number read; marked counts them (0 when none was unread). Answers the account\'s unread_total after it. Needs the send scope, like replying.',
      params: ConversationParams, response: { 200: ReadResult },
    },
  }, async (request) => conversations.readConversation(request.actor, request.params.number));
};
