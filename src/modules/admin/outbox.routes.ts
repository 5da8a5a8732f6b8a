import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';

const OutboxMail = Type.Object({
  id: described(Uuid, 'The mail\'s id'),
  account_id: nullable(Uuid, 'The account it concerns, or null'),
  kind: Type.String({ description: 'invite, password_reset or low_balance' }),
  to: Type.String({ description: 'The recipient\'s address' }),
  subject: Type.String({ description: 'Its subject' }),
  body: Type.Union([Type.String(), Type.Null()], { description: 'The text with its link; null once sent by SMTP (the recipient has it)' }),
  created_at: described(Timestamp, 'When it was written'),
  sent_at: Type.Union([Timestamp, Type.Null()], { description: 'When the SMTP server accepted it; null: kept here (no SMTP_URL) or still waiting' }),
  attempts: Type.Integer({ description: 'SMTP attempts so far' }),
  last_error: nullable(Type.String(), 'Why the last SMTP attempt failed, or null'),
}, { description: 'One email' });

/**
 * GET /admin/outbox: the mail Tasman sent or keeps (platform/mail/mailer.ts), newest first. Without SMTP_URL this
 * is where invitations and reset links are read. Registered inside the operator routes (the operator token or
 * console session).
 */
/** The services these routes call, and nothing else. */
export type OutboxRoutesDeps = { mail: Mailer };

export const outboxRoutes: FastifyPluginAsyncTypebox<OutboxRoutesDeps> = async (app, { mail }) => {
  app.get('/admin/outbox', {
    config: {
      contract: {
        response: {
          mail: [{
            id: EX.delivery, account_id: EX.account, kind: 'invite', to: 'reception@harbourdental.example', subject: 'You are invited to Harbour Dental Group on Tasman',
            body: null, created_at: EX.created, sent_at: EX.created, attempts: 1, last_error: null,
          }],
        },
      },
    },
    schema: {
      tags: ['Operator'], security: [{ adminToken: [] }], summary: 'The email outbox: invitations, reset links and notices, newest first',
      description: 'The mail Tasman sent or keeps, newest first: invitations, password reset links and low-balance notices. Without SMTP_URL nothing is sent and this is where the operator reads the links to pass on; with it, bodies are dropped once the SMTP server accepts them. Reads only. Operator token or console session.',
      querystring: Type.Object({
        to: Type.Optional(Type.String({ maxLength: 320, description: 'Only mail to this address (any case)' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'How many, 1 to 200 (default 50)' })),
      }),
      response: { 200: Type.Object({ mail: Type.Array(OutboxMail, { description: 'The mail, newest first' }) }, { description: 'The outbox' }) },
    },
  }, async (request, reply) => {
    const sent = await mail.outbox(request.query);
    // The bodies carry invite and reset links.
    reply.header('cache-control', 'no-store');
    return { mail: sent };
  });
};
