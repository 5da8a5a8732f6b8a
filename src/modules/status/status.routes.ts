import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { described, Timestamp } from '../../platform/http/schemas.ts';
import type { StatusService } from './status.service.ts';

const State = Type.Union([Type.Literal('operational'), Type.Literal('degraded')], { description: 'operational or degraded' });

export const StatusResponse = Type.Object({
  status: described(State, 'degraded when any service below is'),
  timestamp: described(Timestamp, 'When this was computed'),
  version: Type.String({ description: 'The running Tasman version' }),
  services: Type.Object({
    outbound: described(State, 'Sending: degraded when no carrier is bound, a country has no bound carrier, or the oldest due message has waited over 2 minutes'),
    inbound: described(State, 'Receiving replies: degraded when the carrier link is down'),
    delivery_receipts: described(State, 'Delivery receipts: degraded when the link is down or an accepted receipt has waited over a minute to be applied'),
  }, { description: 'Each part of the service' }),
}, { description: 'The service status' });

/** Public: no API key, no credits; the client libraries' `status()`. */
/** The services these routes call, and nothing else. */
export type StatusRoutesDeps = { status: StatusService };

export const statusRoutes: FastifyPluginAsyncTypebox<StatusRoutesDeps> = async (app, { status }) => {
  app.get('/status', {
    config: {
      contract: {
        response: {
          status: 'operational', timestamp: '2026-11-27T22:05:00.000Z', version: '1.0.0',
          services: { outbound: 'operational', inbound: 'operational', delivery_receipts: 'operational' },
        },
      },
    },
    schema: {
      tags: ['Status'], summary: 'Public service status (no key, consumes no credits)', security: [],
      description: 'Whether sending, receiving and delivery receipts work right now, as the client libraries\' status() reports it. Public: no key, no credits, no account data. Reads only.',
      response: { 200: StatusResponse },
    },
  }, async () => status.status());
};
