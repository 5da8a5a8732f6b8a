import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Timestamp } from '../../platform/http/schemas.ts';
import type { StatusService } from './status.service.ts';

const State = Type.Union([Type.Literal('operational'), Type.Literal('degraded')]);

export const StatusResponse = Type.Object({
  status: State,
  timestamp: Timestamp,
  version: Type.String(),
  services: Type.Object({ outbound: State, inbound: State, delivery_receipts: State }),
});

/** Public: no API key, no credits; the client libraries' `status()`. */
export const statusRoutes: FastifyPluginAsyncTypebox<{ services: { status: StatusService } }> = async (app, { services }) => {
  app.get('/status', {
    schema: {
      tags: ['Status'], summary: 'Public service status (no key, consumes no credits)', security: [],
      response: { 200: StatusResponse },
    },
  }, async () => services.status.status());
};
