import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import type { MessageService } from './messages.service.ts';
import type { ReplyService } from './reply.service.ts';
import type { TemplateService } from '../templates/templates.service.ts';
import {
  BatchPreview, BatchRequest, CancelResult, BatchResult, SendPreview, MessageExportQuery, MessageList, MessageListQuery, MessageDetail, ReplyRequest,
  SendRequest, SendResult, sendContract, previewContract, withBatchErrors, replyErrors, SEND_SAMPLE, BATCH_SAMPLE, MESSAGE_EXAMPLES, EXPORT_COLUMNS, SEND_RESULT_EXAMPLE,
} from './messages.schemas.ts';

const MessageRef = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'the message id, or the Idempotency-Key the account used on /send (kept 24 hours)' }),
});

/** The services these routes call, and nothing else. */
export type MessageRoutesDeps = { messages: MessageService; replies: ReplyService; templates: TemplateService; idempotency: Idempotency };

export const messageRoutes: FastifyPluginAsyncTypebox<MessageRoutesDeps> = async (app, { messages, replies, templates, idempotency }) => {
  app.post('/send', {
    config: { contract: { ...sendContract(SEND_SAMPLE), response: SEND_RESULT_EXAMPLE }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Send one message',
      description: 'Queues one SMS to an Australian or New Zealand mobile and charges it: one credit per part (up to 160 characters is one part, longer text one part per 154 characters, counted after merge fields and links are filled in; at most 1,600), taken from the balance in the same transaction that commits the message, so a 200 means it will be sent. Refused before anything is charged when the number is not a mobile (400 invalid_number), the recipient has opted out (400 recipient_opted_out), the sender is not the account\'s (400 sender_not_allowed), the balance is short (402 insufficient_credits) or the account\'s daily cap is reached (429 daily_limit_exceeded). With send_at the message waits as scheduled (credits taken now, refunded on cancel); inside the account\'s quiet hours it is held unless urgent. Track it with GET /message/{id} or the message.dlr webhook. Send an Idempotency-Key to make retries safe. Needs the send scope.',
      body: SendRequest, headers: IdempotencyHeaders, response: { 200: SendResult },
    },
  }, async (request, reply) => idempotency.run(request, reply, 'send',
    async (within) => messages.send(request.actor, await templates.resolve(request.actor, request.body), within)));

  app.post('/send-batch', {
    config: { contract: { ...withBatchErrors(sendContract(BATCH_SAMPLE)), response: MESSAGE_EXAMPLES.batch }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Send a merged batch of up to 1,000 recipients',
      description: 'Queues one message per recipient, its {{placeholders}} filled from that recipient\'s merge_data, as one campaign, and charges them all in one transaction: every valid recipient is queued or none is. Numbers that are not AU or NZ mobiles are listed in invalid_numbers, opted-out recipients and repeats are counted and skipped; none of them is charged. The whole batch is refused 402 insufficient_credits when the balance does not cover it. Track it with GET /campaign/{id}. Send an Idempotency-Key to make retries safe. Needs the send scope.',
      body: BatchRequest, headers: IdempotencyHeaders, response: { 200: BatchResult },
    },
  }, async (request, reply) => idempotency.run(request, reply, 'send-batch',
    async (within) => messages.sendBatch(request.actor, await templates.resolve(request.actor, request.body), within)));

  app.post('/send/preview', {
    config: { contract: { ...previewContract(SEND_SAMPLE), response: MESSAGE_EXAMPLES.preview }, scope: 'read' },
    schema: {
      tags: ['Sending'], summary: 'What /send would send and charge, without sending or charging',
      description: 'Takes the body /send takes and answers the text as it would go out (placeholders and links filled in), its encoding, parts and credits, and whether the recipient has opted out. Sends nothing, charges nothing, writes nothing; refuses what /send would refuse for the number, text or sender. Needs only the read scope.',
      body: SendRequest, response: { 200: SendPreview },
    },
  }, async (request) => messages.previewSend(request.actor, await templates.resolve(request.actor, request.body)));

  app.post('/send-batch/preview', {
    config: { contract: { ...withBatchErrors(previewContract(BATCH_SAMPLE)), response: MESSAGE_EXAMPLES.batchPreview }, scope: 'read' },
    schema: {
      tags: ['Sending'], summary: 'What /send-batch would send and charge, without sending or charging',
      description: 'Takes the body /send-batch takes and answers each merged message with its parts and credits, the total, and the recipients the batch would skip (invalid, opted out, repeated). Sends nothing, charges nothing, writes nothing. Needs only the read scope.',
      body: BatchRequest, response: { 200: BatchPreview },
    },
  }, async (request) => messages.previewBatch(request.actor, await templates.resolve(request.actor, request.body)));

  app.get('/message/:id', {
    config: { contract: { errors: ['not_found'], response: MESSAGE_EXAMPLES.detail }, scope: 'read' },
    schema: {
      tags: ['Tracking'], summary: 'A message and its delivery receipt, by id or by the Idempotency-Key used on /send',
      description: 'The message, its status and the carrier\'s delivery receipt once one arrives (the message.dlr webhook pushes the same body), plus click counts of its tracked links. The id may also be the Idempotency-Key the send used, for 24 hours, so a client that lost the answer can find the message. Another account\'s message answers 404. Needs the read scope.',
      params: MessageRef, response: { 200: MessageDetail },
    },
  }, async (request) => messages.get(request.actor, request.params.id));

  app.delete('/message/:id', {
    config: { contract: { errors: ['not_found', 'not_scheduled'], response: MESSAGE_EXAMPLES.cancel }, scope: 'send' },
    schema: {
      tags: ['Sending'], summary: 'Cancel a scheduled message (refunded); 409 once it is queued or sent', params: IdParams,
      description: 'Cancels a message still waiting for its send_at and returns its credits to the balance in the same transaction; the message stays listed as cancelled. Once it is queued for the carrier or sent it answers 409 not_scheduled and nothing changes, so cancelling twice answers 409 the second time. Needs the send scope.',
      response: { 200: CancelResult },
    },
  }, async (request) => messages.cancel(request.actor, request.params.id));

  app.get('/messages', {
    config: { contract: { errors: ['invalid_range'], response: MESSAGE_EXAMPLES.list }, scope: 'read' },
    schema: {
      tags: ['Tracking'], summary: 'Search the account\'s outbound messages, newest first (cursor pagination)',
      description: 'Pages through the account\'s outbound messages, newest first, each with its delivery receipt, filtered by status, recipient, campaign, sender, date range and text. Pass next_cursor back as cursor for the next page; the pages stay stable while new messages arrive. A date_from after date_to answers 400 invalid_range. Needs the read scope.',
      querystring: MessageListQuery, response: { 200: MessageList },
    },
  }, async (request) => messages.list(request.actor, request.query));

  app.get('/messages/export', {
    config: {
      contract: { sample: { query: { status: 'failed', date_from: '2026-11-01', date_to: '2026-11-27' } }, errors: ['invalid_range'], response: MESSAGE_EXAMPLES.csv },
      scope: 'read',
    },
    schema: {
      tags: ['Tracking'], summary: 'Download the account\'s outbound messages matching GET /messages\' filters as CSV',
      description: 'Every outbound message GET /messages would list for the same filters (status, recipient, campaign, sender, date range, text), newest first, as one CSV file (an attachment, messages.csv) streamed as it is read, however many there are. Cells a spreadsheet could take for a formula (text beginning with =, +, -, @) are prefixed with \'; whole E.164 numbers are left as they are. A date_from after date_to answers 400 invalid_range. Needs the read scope.',
      querystring: MessageExportQuery,
      response: { 200: { description: EXPORT_COLUMNS.join(','), content: { 'text/csv': { schema: Type.String() } } } },
    },
  }, async (request, reply) => {
    const csv = await messages.exportCsv(request.actor, request.query);
    // A stream of the documented string: Fastify pipes it with backpressure (the type provider knows only the string).
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="messages.csv"').send(csv as unknown as string);
  });

  app.post('/inbox/:id/reply', {
    // A send to the inbound's sender (messages.send), once the inbound is found; its key is scoped to the inbound.
    config: {
      contract: {
        sample: { body: { message: 'Thanks Ana, see you on Tuesday.' } }, response: SEND_RESULT_EXAMPLE,
        errors: [...replyErrors, 'not_found', 'idempotency_in_flight', 'idempotency_mismatch'],
      },
      scope: 'send',
    },
    schema: {
      tags: ['Inbound and opt-outs'], summary: 'Reply to an inbound message (a send to its sender, charged as one)',
      description: 'Sends a message to whoever sent the inbound message, from the number it arrived on, charged and refused as /send is (the sender may have opted out since). The new message is tracked like any other. An inbound id of another account answers 404. Each call sends again unless it carries an Idempotency-Key, which replays the first answer as on /send. Needs the send scope.',
      params: IdParams, body: ReplyRequest, headers: IdempotencyHeaders, response: { 200: SendResult },
    },
  }, async (request, reply) => idempotency.run(request, reply, `inbox/${request.params.id}/reply`,
    (within) => replies.reply(request.actor, request.params.id, request.body, within)));
};
