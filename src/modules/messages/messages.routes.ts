import { Type } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import {
  BatchPreview, BatchRequest, CancelResult, BatchResult, IdempotencyHeaders, SendPreview, MessageList, MessageListQuery, MessageDetail, ReplyRequest,
  SendRequest, SendResult, sendContract, previewContract, replyErrors, SEND_SAMPLE, BATCH_SAMPLE,
} from './messages.schemas.ts';

const MessageRef = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'the message id, or the Idempotency-Key the account used on /send (kept 24 hours)' }),
});

export const messageRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { messages, idempotency } = services;

  app.post('/send', {
    config: { contract: sendContract(SEND_SAMPLE), scope: 'send' },
    schema: { tags: ['Sending'], summary: 'Send one message', body: SendRequest, headers: IdempotencyHeaders, response: { 200: SendResult } },
  }, async (request, reply) => idempotency.run(request, reply, 'send',
    (within) => messages.send(request.actor, request.body, within)));

  app.post('/send-batch', {
    config: { contract: sendContract(BATCH_SAMPLE), scope: 'send' },
    schema: { tags: ['Sending'], summary: 'Send a merged batch of up to 1,000 recipients', body: BatchRequest, headers: IdempotencyHeaders, response: { 200: BatchResult } },
  }, async (request, reply) => idempotency.run(request, reply, 'send-batch',
    (within) => messages.sendBatch(request.actor, request.body, within)));

  app.post('/send/preview', {
    config: { contract: previewContract(SEND_SAMPLE), scope: 'read' },
    schema: { tags: ['Sending'], summary: 'What /send would send and charge, without sending or charging', body: SendRequest, response: { 200: SendPreview } },
  }, async (request) => messages.previewSend(request.actor, request.body));

  app.post('/send-batch/preview', {
    config: { contract: previewContract(BATCH_SAMPLE), scope: 'read' },
    schema: { tags: ['Sending'], summary: 'What /send-batch would send and charge, without sending or charging', body: BatchRequest, response: { 200: BatchPreview } },
  }, async (request) => messages.previewBatch(request.actor, request.body));

  app.get('/message/:id', {
    config: { contract: { errors: ['not_found'] }, scope: 'read' },
    schema: { tags: ['Tracking'], summary: 'A message and its delivery receipt, by id or by the Idempotency-Key used on /send', params: MessageRef, response: { 200: MessageDetail } },
  }, async (request) => messages.get(request.actor, request.params.id));

  app.delete('/message/:id', {
    config: { contract: { errors: ['not_found', 'not_scheduled'] }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Cancel a scheduled message (refunded); 409 once it is queued or sent', params: IdParams,
      response: { 200: CancelResult },
    },
  }, async (request) => messages.cancel(request.actor, request.params.id));

  app.get('/messages', {
    config: { contract: { errors: ['invalid_range'] }, scope: 'read' },
    schema: { tags: ['Tracking'], summary: 'Search the account\'s outbound messages, newest first (cursor pagination)', querystring: MessageListQuery, response: { 200: MessageList } },
  }, async (request) => messages.list(request.actor, request.query));

  app.post('/inbox/:id/reply', {
    // A send to the inbound's sender (messages.send without an Idempotency-Key), once the inbound is found.
    config: { contract: { sample: { body: { message: 'Thanks, see you then' } }, errors: [...replyErrors, 'not_found'] }, scope: 'send' },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Reply to an inbound message (a send to its sender, charged as one)',
      params: IdParams, body: ReplyRequest, response: { 200: SendResult },
    },
  }, async (request) => services.replies.reply(request.actor, request.params.id, request.body));
};
