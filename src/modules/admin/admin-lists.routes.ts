import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, nullable, Offset, ScopeName, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import type { AdminService } from './admin.service.ts';

// The operator's lists of keys, Sender IDs and numbers (`tasman admin key|sender-id|number list`). Registered
// inside adminRoutes, so the operator token guards them like every /admin route.

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const page = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' }),
  offset: Offset,
};
const Paged = { total: Type.Integer({ description: 'How many match the filters, on every page' }), limit: Type.Integer({ description: 'The page size used' }), offset: Type.Integer({ description: 'The offset used' }) };
const OfAccount = described(Uuid, 'Only those of this account');
const AccountId = described(Uuid, 'The account');
const Created = described(Timestamp, 'When it was created');

/** The services these routes call, and nothing else. */
export type AdminListRoutesDeps = { admin: AdminService };

export const adminListRoutes: FastifyPluginAsyncTypebox<AdminListRoutesDeps> = async (app, { admin }) => {
  app.get('/admin/keys', {
    config: {
      contract: {
        response: {
          keys: [{ id: EX.key, account_id: EX.account, name: 'ci', prefix: 'tsm_7Hq2xK9p', scopes: ['read', 'send'], created_at: EX.created, last_used_at: EX.sent, revoked_at: null }],
          total: 1, limit: 25, offset: 0,
        },
      },
    },
    schema: {
      tags, security, summary: 'List API keys across accounts, newest first (never the keys themselves)',
      description: 'API keys of every account, newest first, by account, prefix (to trace a leaked key back to its account) or status. Secrets are never shown. Reads only. Operator token or console session.',
      querystring: Type.Object({
        account_id: Type.Optional(OfAccount),
        prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'keys whose shown prefix starts with this (tsm_…)' })),
        status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('revoked')], { description: 'active or revoked' })),
        ...page,
      }),
      response: {
        200: Type.Object({
          keys: Type.Array(Type.Object({
            id: described(Uuid, 'The key\'s id'), account_id: AccountId, name: Type.String({ description: 'Its label' }),
            prefix: Type.String({ description: 'Its first characters (tsm_…)' }), scopes: Type.Array(ScopeName, { description: 'What it may do' }),
            created_at: Created, last_used_at: nullable(Timestamp, 'When it last authenticated a request, or null'),
            revoked_at: nullable(Timestamp, 'When it was revoked; null while it works'),
          }), { description: 'The page' }),
          ...Paged,
        }, { description: 'A page of keys' }),
      },
    },
  }, async (request) => admin.listKeys(request.query));

  app.get('/admin/sender-ids', {
    config: {
      contract: { response: { sender_ids: [{ id: EX.senderId, sender_id: 'HarbourDnt', abn: '51824753556', account_id: EX.account, created_at: EX.created }], total: 1, limit: 25, offset: 0 } },
    },
    schema: {
      tags, security, summary: 'List registered Sender IDs, newest first',
      description: 'The Sender ID registrations, newest first, searchable by part of the Sender ID, by ABN or by the account that asked. Reads only. Operator token or console session.',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 11, description: 'part of the Sender ID, any case' })),
        abn: Type.Optional(Type.String({ minLength: 11, maxLength: 14, description: '11 digits; spaces ignored' })),
        account_id: Type.Optional(OfAccount),
        ...page,
      }),
      response: {
        200: Type.Object({
          sender_ids: Type.Array(Type.Object({
            id: described(Uuid, 'The registration\'s id'), sender_id: Type.String({ description: 'The Sender ID' }), abn: Type.String({ description: 'The ABN it is registered to' }),
            account_id: nullable(Uuid, 'The account that asked for it, or null'), created_at: described(Timestamp, 'When it was registered'),
          }), { description: 'The page' }),
          ...Paged,
        }, { description: 'A page of Sender IDs' }),
      },
    },
  }, async (request) => admin.listSenderIds(request.query));

  app.get('/admin/numbers', {
    config: {
      contract: {
        response: {
          numbers: [{
            id: EX.number, number: '+61480000123', country: 'AU', price_monthly: 9.9, account_id: EX.account, label: 'Reception', assigned_at: EX.sent,
            paid_until: '2026-12-27T22:04:10.512Z', unpaid_since: null, created_at: EX.created,
          }],
          total: 1, limit: 25, offset: 0,
        },
      },
    },
    schema: {
      tags, security, summary: 'List dedicated numbers, in the pool and held, in number order',
      description: 'Every dedicated number of the service, free in the pool or held by an account, with its rental state, in number order; filter by digits, country, holder or pool/held. Reads only. Operator token or console session.',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 40, description: 'digits of the number, local (04…) or international' })),
        country: Type.Optional(Type.Union([Type.Literal('AU'), Type.Literal('NZ')], { description: 'Only this country\'s, AU or NZ' })),
        account_id: Type.Optional(OfAccount),
        status: Type.Optional(Type.Union([Type.Literal('pool'), Type.Literal('held')], { description: 'pool: no holder; held: an account holds it' })),
        ...page,
      }),
      response: {
        200: Type.Object({
          numbers: Type.Array(Type.Object({
            id: described(Uuid, 'The number\'s id'), number: Type.String({ description: 'The number, E.164' }), country: Type.String({ description: 'AU or NZ' }),
            price_monthly: Type.Number({ description: 'Rental per 30 days, Australian dollars' }), account_id: nullable(Uuid, 'Its holder, or null in the pool'),
            label: nullable(Type.String(), 'The holder\'s name for it, or null'), assigned_at: nullable(Timestamp, 'When its holder got it, or null'),
            paid_until: nullable(Timestamp, 'End of the paid rental period; null when not rented'),
            unpaid_since: nullable(Timestamp, 'When a renewal could not be paid (the 7-day grace runs); null otherwise'),
            created_at: described(Timestamp, 'When it was added'),
          }), { description: 'The page' }),
          ...Paged,
        }, { description: 'A page of numbers' }),
      },
    },
  }, async (request) => admin.listNumbers(request.query));
};
