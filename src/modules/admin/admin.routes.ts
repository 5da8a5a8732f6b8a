import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NonBlankName, Ok, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { requireAdminToken } from '../../platform/http/auth.ts';
import type { Services } from '../../compose.ts';
import { AppError } from '../../platform/errors.ts';
import { OPERATOR_COOKIE } from '../sessions/sessions.routes.ts';
import { KeyCreated, KeyScopes } from '../keys/keys.schemas.ts';
import { adminListRoutes } from './admin-lists.routes.ts';
import { adminAuditRoutes } from '../audit/audit.routes.ts';
import { Country } from '../settings/settings.schemas.ts';
import { operatorActor } from '../../platform/audit/entry.ts';
import { outboxRoutes } from './outbox.routes.ts';

/** What the simulator route needs of the built-in SMSC. */
export interface InboundInjector {
  injectInbound(message: { from: string; to: string; text: string }): Promise<void>;
}

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Abn = Type.String({ minLength: 11, maxLength: 14, description: '11 digits; spaces ignored' });

const AccountSummary = Type.Object({
  account_id: Uuid, business_name: Type.String(), email: Type.Optional(Nullable(Type.String())), abn: Nullable(Type.String()),
  account_status: Type.String(), hierarchy_enabled: Type.Boolean(), credits: Type.Integer(),
  parent_account_id: Type.Optional(Nullable(Uuid)), active_keys: Type.Optional(Type.Integer()), created_at: Type.Optional(Timestamp),
  max_numbers: Type.Optional(Nullable(Type.Integer({ description: 'dedicated numbers the account may hold; null: the MAX_NUMBERS default' }))),
  country: Type.Optional(Country),
});

export const adminRoutes: FastifyPluginAsyncTypebox<{
  services: Services;
  /** The built-in SMSC, when this process runs one (SMPP_HOST unset): an explicit, optional dependency. */
  simulator: InboundInjector | null;
  adminToken: string | null;
}> = async (app, { services, simulator, adminToken }) => {
  requireAdminToken(app, adminToken, { cookie: OPERATOR_COOKIE, authenticate: services.sessions.authenticateOperator, failed: services.addressThrottle.failed });
  const { admin } = services;

  app.post('/admin/accounts', {
    config: { contract: { sample: { body: { business_name: 'Acme Pty Ltd', email: 'owner@acme.example' } } } },
    schema: {
      tags, security, summary: 'Create an account with its first API key',
      body: Type.Object({
        business_name: NonBlankName,
        email: Type.String({ format: 'email', maxLength: 320 }),
        abn: Type.Optional(Abn),
        credits: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
        hierarchy_enabled: Type.Optional(Type.Boolean()),
        country: Type.Optional(Country),
      }),
      response: {
        201: Type.Object({
          account_id: Uuid, api_key: Type.String(), key_id: Uuid, credits: Type.Integer(),
          owner_invite_url: Type.String({ description: 'Opens the dashboard page where the owner chooses a password (valid 7 days)' }),
        }),
      },
    },
  }, async (request, reply) => reply.status(201).send(await admin.createAccount(operatorActor(request.ip), request.body)));

  app.get('/admin/accounts', {
    config: { contract: {} },
    schema: {
      tags, security, summary: 'List and search accounts (name, email or id)',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 200 })),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
        offset: Type.Integer({ minimum: 0, default: 0 }),
      }),
      response: { 200: Type.Object({ accounts: Type.Array(AccountSummary), limit: Type.Integer(), offset: Type.Integer() }) },
    },
  }, async (request) => admin.listAccounts(request.query));

  app.get('/admin/accounts/:id', {
    config: { contract: { errors: ['not_found'] } },
    schema: { tags, security, summary: 'Read an account', params: IdParams, response: { 200: AccountSummary } },
  }, async (request) => admin.getAccount(request.params.id));

  app.patch('/admin/accounts/:id', {
    config: { contract: { sample: { body: { hierarchy_enabled: true } }, errors: ['not_found'] } },
    schema: {
      tags, security, summary: 'Enable the hierarchy, set the ABN, the status, the number cap or the country',
      params: IdParams,
      body: Type.Object({
        hierarchy_enabled: Type.Optional(Type.Boolean()),
        abn: Type.Optional(Nullable(Abn)),
        account_status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
        max_numbers: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000, description: 'dedicated numbers the account may hold; null returns it to MAX_NUMBERS' }))),
        country: Type.Optional(Country),
      }),
      response: { 200: AccountSummary },
    },
  }, async (request) => admin.patchAccount(operatorActor(request.ip), request.params.id, request.body));

  app.post('/admin/accounts/:id/credits', {
    config: { contract: { sample: { body: { amount: 100 } }, errors: ['not_found', 'insufficient_credits'] } },
    schema: {
      tags, security, summary: 'Add (or with a negative amount remove) credits', params: IdParams,
      body: Type.Object({ amount: Type.Integer({ minimum: -100_000_000, maximum: 100_000_000, not: { const: 0 } }) }),
      response: { 200: Type.Object({ account_id: Uuid, credits: Type.Integer() }) },
    },
  }, async (request) => admin.addCredits(operatorActor(request.ip), request.params.id, request.body.amount));

  app.post('/admin/accounts/:id/keys', {
    config: { contract: { sample: { body: { name: 'ops' } }, errors: ['not_found'] } },
    schema: {
      tags, security, summary: 'Issue an API key (shown once)', params: IdParams,
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), scopes: Type.Optional(KeyScopes) }),
      response: { 201: KeyCreated },
    },
  }, async (request, reply) => reply.status(201).send(await admin.createKey(operatorActor(request.ip), request.params.id, request.body.name, request.body.scopes)));

  app.delete('/admin/accounts/:id/keys/:keyId', {
    config: { contract: { errors: ['not_found'] } },
    schema: {
      tags, security, summary: 'Revoke an API key', params: Type.Object({ id: Uuid, keyId: Uuid }),
      response: { 200: Ok },
    },
  }, async (request) => admin.revoke(operatorActor(request.ip), request.params.id, request.params.keyId));

  app.post('/admin/sender-ids', {
    config: { contract: { sample: { body: { sender_id: 'Acme', abn: '51824753556' } }, errors: ['not_found', 'conflict'] } },
    schema: {
      tags, security, summary: 'Register an alphanumeric Sender ID to an ABN',
      body: Type.Object({ sender_id: Type.String({ minLength: 3, maxLength: 11 }), abn: Abn, account_id: Type.Optional(Uuid) }),
      response: { 201: Type.Object({ id: Uuid, sender_id: Type.String(), abn: Type.String(), account_id: Nullable(Uuid), created_at: Timestamp }) },
    },
  }, async (request, reply) => reply.status(201).send(await admin.registerSenderId(operatorActor(request.ip), request.body)));

  app.post('/admin/numbers', {
    config: { contract: { sample: { body: { number: '+61412345678', country: 'AU' } }, errors: ['invalid_number', 'not_found', 'conflict'] } },
    schema: {
      tags, security, summary: 'Add a dedicated number to the pool, or straight to an account',
      body: Type.Object({
        number: Type.String({ minLength: 1, maxLength: 40 }),
        country: Type.Union([Type.Literal('AU'), Type.Literal('NZ')]),
        price_monthly: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000 })),
        account_id: Type.Optional(Uuid),
      }),
      response: { 201: Type.Object({ id: Uuid, number: Type.String(), country: Type.String(), price_monthly: Type.Number(), account_id: Nullable(Uuid) }) },
    },
  }, async (request, reply) => reply.status(201).send(await admin.addNumber(operatorActor(request.ip), request.body)));

  await app.register(adminListRoutes, { services });
  await app.register(adminAuditRoutes, { services });
  await app.register(outboxRoutes, { services });

  // Development only: answers while this process runs the built-in SMSC (SMPP_HOST unset), else 404.
  app.post('/admin/simulator/inbound', {
    config: { contract: { sample: { body: { from: '+61412345678', to: '+61400000000', text: 'Hello' } }, errors: ['not_found', 'service_unavailable'] } },
    schema: {
      tags, security, summary: 'Make the built-in SMSC send an inbound (MO) message',
      body: Type.Object({
        from: Type.String({ minLength: 1, maxLength: 20, description: 'The sender\'s number, E.164' }),
        to: Type.String({ minLength: 1, maxLength: 20, description: 'The service number it is sent to' }),
        text: Type.String({ maxLength: 1600 }),
      }),
      response: { 200: Ok },
    },
  }, async (request) => injectInbound(simulator, request.body));
};

const INJECT_TIMEOUT_MS = 15_000;

/** Resolves once Tasman has acknowledged every part, i.e. the message is committed and visible in /inbox. */
async function injectInbound(
  simulator: InboundInjector | null, message: { from: string; to: string; text: string },
): Promise<{ ok: true }> {
  if (!simulator) throw new AppError('not_found', 'No built-in SMSC simulator runs in this process');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('service_unavailable', 'The simulator\'s message was not acknowledged in time')), INJECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([simulator.injectInbound(message).catch((err: Error) => {
      throw new AppError('service_unavailable', `The simulator could not send it: ${err.message}`);
    }), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return { ok: true };
}
