import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Offset, ScopeName, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';

// The operator's lists of keys, Sender IDs and numbers (`tasman admin key|sender-id|number list`). Registered
// inside adminRoutes, so the operator token guards them like every /admin route.

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const page = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  offset: Offset,
};
const Paged = { limit: Type.Integer(), offset: Type.Integer() };

export const adminListRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services: { admin } }) => {
  app.get('/admin/keys', {
    config: { contract: {} },
    schema: {
      tags, security, summary: 'List API keys across accounts, newest first (never the keys themselves)',
      querystring: Type.Object({
        account_id: Type.Optional(Uuid),
        prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'keys whose shown prefix starts with this (tsm_…)' })),
        status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('revoked')])),
        ...page,
      }),
      response: {
        200: Type.Object({
          keys: Type.Array(Type.Object({
            id: Uuid, account_id: Uuid, name: Type.String(), prefix: Type.String(), scopes: Type.Array(ScopeName),
            created_at: Timestamp, last_used_at: Nullable(Timestamp), revoked_at: Nullable(Timestamp),
          })),
          ...Paged,
        }),
      },
    },
  }, async (request) => admin.listKeys(request.query));

  app.get('/admin/sender-ids', {
    config: { contract: {} },
    schema: {
      tags, security, summary: 'List registered Sender IDs, newest first',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 11, description: 'part of the Sender ID, any case' })),
        abn: Type.Optional(Type.String({ minLength: 11, maxLength: 14, description: '11 digits; spaces ignored' })),
        account_id: Type.Optional(Uuid),
        ...page,
      }),
      response: {
        200: Type.Object({
          sender_ids: Type.Array(Type.Object({ id: Uuid, sender_id: Type.String(), abn: Type.String(), account_id: Nullable(Uuid), created_at: Timestamp })),
          ...Paged,
        }),
      },
    },
  }, async (request) => admin.listSenderIds(request.query));

  app.get('/admin/numbers', {
    config: { contract: {} },
    schema: {
      tags, security, summary: 'List dedicated numbers, in the pool and held, in number order',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 40, description: 'digits of the number, local (04…) or international' })),
        country: Type.Optional(Type.Union([Type.Literal('AU'), Type.Literal('NZ')])),
        account_id: Type.Optional(Uuid),
        status: Type.Optional(Type.Union([Type.Literal('pool'), Type.Literal('held')], { description: 'pool: no holder; held: an account holds it' })),
        ...page,
      }),
      response: {
        200: Type.Object({
          numbers: Type.Array(Type.Object({
            id: Uuid, number: Type.String(), country: Type.String(), price_monthly: Type.Number(), account_id: Nullable(Uuid),
            label: Nullable(Type.String()), assigned_at: Nullable(Timestamp), paid_until: Nullable(Timestamp), unpaid_since: Nullable(Timestamp),
            created_at: Timestamp,
          })),
          ...Paged,
        }),
      },
    },
  }, async (request) => admin.listNumbers(request.query));
};
