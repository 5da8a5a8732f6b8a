import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { SmppCredentialService } from './smpp-credentials.service.ts';

// The operator's view of the SMPP server: every live bind on every instance, and what waits in the queues.
// Registered inside adminRoutes, so the operator token guards it like every /admin route.
export type SmppBindAdminRoutesDeps = { smppCredentials: SmppCredentialService };

export const smppBindAdminRoutes: FastifyPluginAsyncTypebox<SmppBindAdminRoutesDeps> = async (app, { smppCredentials }) => {
  app.get('/admin/smpp-binds', {
    config: {
      contract: {
        response: {
          binds: [{
            id: EX.key, account_id: EX.account, credential_id: EX.key, system_id: 'tsm4k2p9x7q1m', mode: 'transceiver', address: '203.0.113.7',
            bound_at: EX.created, seen_at: EX.sent, pdus_in: 120, pdus_out: 131,
          }],
          queued: [{ account_id: EX.account, queued: 3 }],
        },
      },
    },
    schema: {
      tags: ['Operator'], security: [{ adminToken: [] }],
      summary: 'Customers\' SMPP binds on every instance, and their queued deliveries',
      description: 'Every bind open on the SMPP server (any instance; each is renewed every 10 s and lapses after 30 s without), newest first, with its PDUs in and out, and per account the receipts and inbound messages waiting for a receiving bind. Reads only. Operator token or console session.',
      querystring: Type.Object({ account_id: Type.Optional(described(Uuid, 'Only those of this account')) }),
      response: {
        200: Type.Object({
          binds: Type.Array(Type.Object({
            id: described(Uuid, 'The bind'), account_id: described(Uuid, 'Its account'), credential_id: described(Uuid, 'The credential it bound with'),
            system_id: Type.String({ description: 'The credential\'s system_id' }),
            mode: Type.String({ description: 'transmitter, receiver or transceiver' }),
            address: Type.String({ description: 'The ESME\'s address' }),
            bound_at: described(Timestamp, 'When it bound'), seen_at: described(Timestamp, 'When its instance last renewed it'),
            pdus_in: Type.Number({ description: 'PDUs received on it (at the last renewal)' }), pdus_out: Type.Number({ description: 'PDUs sent on it (at the last renewal)' }),
          }), { description: 'Live binds, newest first' }),
          queued: Type.Array(Type.Object({ account_id: described(Uuid, 'The account'), queued: Type.Integer({ description: 'Deliveries waiting' }) }), { description: 'Receipts and inbound messages waiting, per account' }),
        }, { description: 'Live binds and queued deliveries' }),
      },
    },
  }, async (request) => smppCredentials.operatorBinds(request.query.account_id));
};
