import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';

const OutboxMail = Type.Object({
  id: Uuid,
  account_id: Type.Union([Uuid, Type.Null()]),
  kind: Type.String({ description: 'invite, password_reset or low_balance' }),
  to: Type.String(),
  subject: Type.String(),
  body: Type.Union([Type.String(), Type.Null()], { description: 'The text with its link; null once sent by SMTP (the recipient has it)' }),
  created_at: Timestamp,
  sent_at: Type.Union([Timestamp, Type.Null()], { description: 'When the SMTP server accepted it; null: kept here (no SMTP_URL) or still waiting' }),
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
});

/**
 * GET /admin/outbox: the mail Tasman sent or keeps (platform/mail/mailer.ts), newest first. Without SMTP_URL this
 * is where invitations and reset links are read. Registered inside the operator routes (the operator token or
 * console session).
 */
export const outboxRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/admin/outbox', {
    config: { contract: {} },
    schema: {
      tags: ['Operator'], security: [{ adminToken: [] }], summary: 'The email outbox: invitations, reset links and notices, newest first',
      querystring: Type.Object({
        to: Type.Optional(Type.String({ maxLength: 320, description: 'Only mail to this address (any case)' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      }),
      response: { 200: Type.Object({ mail: Type.Array(OutboxMail) }) },
    },
  }, async (request, reply) => {
    const mail = await services.mail.outbox(request.query);
    // The bodies carry invite and reset links.
    reply.header('cache-control', 'no-store');
    return { mail };
  });
};
