import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { described, IdParams, nullable, Ok, Timestamp, Uuid } from '../../platform/http/schemas.ts';
import { operatorOf, requireAdminToken, type OperatorSessionAuth } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/errors.ts';
import type { AdminService } from './admin.service.ts';
import { KEY_CREATED_EXAMPLE, KeyCreated, KeyScopes } from '../keys/keys.schemas.ts';
import { adminListRoutes } from './admin-lists.routes.ts';
import { smppBindAdminRoutes, type SmppBindAdminRoutesDeps } from '../smpp-credentials/smpp-binds.routes.ts';
import { adminAuditRoutes, type AuditRoutesDeps } from '../audit/audit.routes.ts';
import { Country } from '../settings/settings.schemas.ts';
import { Abn, CreateAccount } from './admin.schemas.ts';
import { operatorActor } from '../../platform/audit/entry.ts';
import { outboxRoutes, type OutboxRoutesDeps } from './outbox.routes.ts';
import { operatorRoutes, type OperatorRoutesDeps } from '../operators/operators.routes.ts';

/** What the simulator route needs of the built-in SMSC. */
export interface InboundInjector {
  injectInbound(message: { from: string; to: string; text: string }): Promise<void>;
}

const tags = ['Operator'];
const security = [{ adminToken: [] }];
const AccountId = described(Uuid, 'The account\'s id');

const AccountSummary = Type.Object({
  account_id: AccountId, business_name: Type.String({ description: 'The business\'s name' }),
  email: Type.Optional(nullable(Type.String(), 'The owner\'s email, or null')), abn: nullable(Type.String(), 'Its ABN (11 digits), or null'),
  account_status: Type.String({ description: 'active, suspended (reads only: sends and changes answer 403) or closed' }),
  hierarchy_enabled: Type.Boolean({ description: 'It may have sub-accounts' }), credits: Type.Integer({ description: 'Its credit balance' }),
  parent_account_id: Type.Optional(nullable(Uuid, 'Its parent, or null for a top-level account')),
  active_keys: Type.Optional(Type.Integer({ description: 'API keys not revoked' })), created_at: Type.Optional(described(Timestamp, 'When it was created')),
  max_numbers: Type.Optional(nullable(Type.Integer(), 'dedicated numbers the account may hold; null: the MAX_NUMBERS default')),
  country: Type.Optional(Country),
}, { description: 'An account, as the operator sees it' });
const ACCOUNT_SUMMARY_EXAMPLE = {
  account_id: EX.account, business_name: 'Harbour Dental Group', email: 'owner@harbourdental.example', abn: '51824753556', account_status: 'active',
  hierarchy_enabled: true, credits: 9000, parent_account_id: null, active_keys: 2, created_at: EX.created, max_numbers: null, country: 'AU',
};

/** What the /admin routes use (their own and those registered inside them), and nothing else. */
export type AdminRoutesDeps = {
  admin: AdminService;
  /** The built-in SMSC, when this process runs one (SMPP_HOST unset): an explicit, optional dependency. */
  simulator: InboundInjector | null;
  adminToken: string | null;
  operatorSessions: OperatorSessionAuth;
} & SmppBindAdminRoutesDeps & AuditRoutesDeps & OutboxRoutesDeps & OperatorRoutesDeps;

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesDeps> = async (app, deps) => {
  const { admin, simulator, adminToken } = deps;
  requireAdminToken(app, adminToken, deps.operatorSessions);

  app.post('/admin/accounts', {
    config: {
      contract: {
        sample: { body: { business_name: 'Harbour Dental Group', email: 'owner@harbourdental.example', abn: '51 824 753 556', credits: 500 } },
        response: {
          account_id: EX.account, api_key: KEY_CREATED_EXAMPLE.key, key_id: EX.key, credits: 500,
          owner_invite_url: 'https://sms.example.com/app/invite#5mQ1v8ZtR0cW2yK7pN4eH9bJ3fL6xD0a',
        },
      },
    },
    schema: {
      tags, security, summary: 'Create an account with its first API key',
      description: 'Creates a top-level account in one transaction: its balance (the new-account grant unless credits says otherwise), a first API key with every scope (answered in full, once), and its owner as the first dashboard user with an invite link to choose a password. An ABN given here is verified, so Sender IDs registered to it are usable. Not idempotent: each call creates an account. Operator token or console session.',
      body: CreateAccount,
      response: {
        201: Type.Object({
          account_id: AccountId, api_key: Type.String({ description: 'Its first API key, in full: shown only here' }),
          key_id: described(Uuid, 'That key\'s id'), credits: Type.Integer({ description: 'Its opening balance' }),
          owner_invite_url: Type.String({ description: 'Opens the dashboard page where the owner chooses a password (valid 7 days)' }),
        }, { description: 'The account is created' }),
      },
    },
  }, async (request, reply) => reply.status(201).send(await admin.createAccount(operatorActor(request.ip, operatorOf(request)), request.body)));

  app.get('/admin/accounts', {
    config: { contract: { response: { accounts: [ACCOUNT_SUMMARY_EXAMPLE], total: 1, limit: 25, offset: 0 } } },
    schema: {
      tags, security, summary: 'List and search accounts (name, email or id)',
      description: 'Every account of the service, sub-accounts included, newest first, optionally searched by part of the business name or email, or by id. Reads only. Operator token or console session.',
      querystring: Type.Object({
        q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the business name or email (any case), or an account id' })),
        limit: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size, 1 to 100 (default 25)' }),
        offset: Type.Integer({ minimum: 0, default: 0, description: 'Accounts to skip (default 0)' }),
      }),
      response: {
        200: Type.Object({
          accounts: Type.Array(AccountSummary, { description: 'The page' }),
          total: Type.Integer({ description: 'How many accounts match the search, on every page' }),
          limit: Type.Integer({ description: 'The page size used' }), offset: Type.Integer({ description: 'The offset used' }),
        }, { description: 'A page of accounts' }),
      },
    },
  }, async (request) => admin.listAccounts(request.query));

  app.get('/admin/accounts/:id', {
    config: { contract: { errors: ['not_found'], response: ACCOUNT_SUMMARY_EXAMPLE } },
    schema: {
      tags, security, summary: 'Read an account',
      description: 'One account of the service, with its status, balance, ABN, hierarchy flag, number cap and active key count. Operator token or console session.',
      params: IdParams, response: { 200: AccountSummary },
    },
  }, async (request) => admin.getAccount(request.params.id));

  app.patch('/admin/accounts/:id', {
    config: {
      contract: {
        sample: { body: { hierarchy_enabled: true, max_numbers: 5 } }, response: { ...ACCOUNT_SUMMARY_EXAMPLE, max_numbers: 5 },
        errors: ['not_found'],
      },
    },
    schema: {
      tags, security, summary: 'Enable the hierarchy, set the ABN, the status, the number cap or the country',
      description: 'Changes the fields given: hierarchy_enabled lets the account create sub-accounts; an ABN set here is verified (its Sender IDs become usable); suspended stops its sends and changes (reads still work) until set active again; max_numbers caps the dedicated numbers it may hold. Answers the account as it now is. Idempotent. Operator token or console session.',
      params: IdParams,
      body: Type.Object({
        hierarchy_enabled: Type.Optional(Type.Boolean({ description: 'It may create sub-accounts' })),
        abn: Type.Optional(nullable(Abn, 'Its ABN (verified), or null to clear it')),
        account_status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')], { description: 'active, or suspended: no sends or changes until active again' })),
        max_numbers: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 100_000 }), 'dedicated numbers the account may hold; null returns it to MAX_NUMBERS')),
        country: Type.Optional(Country),
      }, { description: 'The fields to change' }),
      response: { 200: AccountSummary },
    },
  }, async (request) => admin.patchAccount(operatorActor(request.ip, operatorOf(request)), request.params.id, request.body));

  app.post('/admin/accounts/:id/credits', {
    config: { contract: { sample: { body: { amount: 1000 } }, response: { account_id: EX.account, credits: 10_000 }, errors: ['not_found', 'insufficient_credits'] } },
    schema: {
      tags, security, summary: 'Add (or with a negative amount remove) credits', params: IdParams,
      description: 'Adds credits to the account\'s balance (a purchase, a grant), or removes them with a negative amount, recorded in its ledger. Removing more than it holds answers 402 insufficient_credits and changes nothing. Not idempotent: each call changes the balance again. Operator token or console session.',
      body: Type.Object({
        amount: Type.Integer({ minimum: -100_000_000, maximum: 100_000_000, not: { const: 0 }, description: 'Credits to add; negative to remove; not 0' }),
      }, { description: 'The change' }),
      response: { 200: Type.Object({ account_id: AccountId, credits: Type.Integer({ description: 'Its balance after the change' }) }, { description: 'The new balance' }) },
    },
  }, async (request) => admin.addCredits(operatorActor(request.ip, operatorOf(request)), request.params.id, request.body.amount));

  app.post('/admin/accounts/:id/keys', {
    config: { contract: { sample: { body: { name: 'ci', scopes: ['read', 'send'] } }, response: KEY_CREATED_EXAMPLE, errors: ['not_found'] } },
    schema: {
      tags, security, summary: 'Issue an API key (shown once)', params: IdParams,
      description: 'Creates an API key for any account, with the scopes given (default all), that works at once; the key is answered in full only here. For an owner who lost every key. Not idempotent. Operator token or console session.',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100, description: 'A label for people' }), scopes: Type.Optional(described(KeyScopes, 'What the key may do (default all)')),
      }, { description: 'The new key' }),
      response: { 201: KeyCreated },
    },
  }, async (request, reply) => reply.status(201).send(await admin.createKey(operatorActor(request.ip, operatorOf(request)), request.params.id, request.body.name, request.body.scopes)));

  app.delete('/admin/accounts/:id/keys/:keyId', {
    config: { contract: { errors: ['not_found'], response: { ok: true } } },
    schema: {
      tags, security, summary: 'Revoke an API key', params: Type.Object({ id: AccountId, keyId: described(Uuid, 'The key\'s id') }),
      description: 'Revokes one of the account\'s keys at once (it answers 401 from then on), for a leaked key. Revoking it again answers 200; a key the account does not have answers 404. Operator token or console session.',
      response: { 200: Ok },
    },
  }, async (request) => admin.revoke(operatorActor(request.ip, operatorOf(request)), request.params.id, request.params.keyId));

  app.post('/admin/sender-ids', {
    config: {
      contract: {
        sample: { body: { sender_id: 'HarbourDnt', abn: '51824753556', account_id: EX.account } },
        response: { id: EX.senderId, sender_id: 'HarbourDnt', abn: '51824753556', account_id: EX.account, created_at: EX.created },
        errors: ['not_found', 'conflict'],
      },
    },
    schema: {
      tags, security, summary: 'Register an alphanumeric Sender ID to an ABN',
      description: 'Records that a Sender ID is registered (with the national register) to an ABN: every account whose verified ABN matches may then send as it, and sub-accounts that inherit their parent\'s senders too. The same Sender ID and ABN twice answers 409 conflict. Operator token or console session.',
      body: Type.Object({
        sender_id: Type.String({ minLength: 3, maxLength: 11, description: '3 to 11 letters, digits or spaces, with a letter' }),
        abn: described(Abn, 'The ABN it is registered to (11 digits, spaces ignored)'),
        account_id: Type.Optional(described(Uuid, 'The account that asked for it (for the records); 404 if unknown')),
      }, { description: 'The registration' }),
      response: {
        201: Type.Object({
          id: described(Uuid, 'The registration\'s id'), sender_id: Type.String({ description: 'The Sender ID' }), abn: Type.String({ description: 'Its ABN, 11 digits' }),
          account_id: nullable(Uuid, 'The account that asked for it, or null'), created_at: described(Timestamp, 'When it was registered'),
        }, { description: 'The Sender ID is registered' }),
      },
    },
  }, async (request, reply) => reply.status(201).send(await admin.registerSenderId(operatorActor(request.ip, operatorOf(request)), request.body)));

  app.post('/admin/numbers', {
    config: {
      contract: {
        sample: { body: { number: '0480 000 123', country: 'AU', price_monthly: 9.9, account_id: EX.account } },
        response: { id: EX.number, number: '+61480000123', country: 'AU', price_monthly: 9.9, account_id: EX.account },
        errors: ['invalid_number', 'not_found', 'conflict'],
      },
    },
    schema: {
      tags, security, summary: 'Add a dedicated number to the pool, or straight to an account',
      description: 'Adds a mobile number the service can send from and receive on: to the pool, where accounts rent it (POST /numbers/purchase), or held by an account at once (not rented: no charge). A number already present answers 409 conflict. Operator token or console session.',
      body: Type.Object({
        number: Type.String({ minLength: 1, maxLength: 40, description: 'The mobile number, in any accepted form' }),
        country: Type.Union([Type.Literal('AU'), Type.Literal('NZ')], { description: 'Its country, AU or NZ: the number must be a mobile of it' }),
        price_monthly: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000, description: 'Rental per 30 days in Australian dollars (default 0)' })),
        account_id: Type.Optional(described(Uuid, 'Give it to this account at once instead of the pool')),
      }, { description: 'The number' }),
      response: {
        201: Type.Object({
          id: described(Uuid, 'The number\'s id'), number: Type.String({ description: 'The number, E.164' }), country: Type.String({ description: 'AU or NZ' }),
          price_monthly: Type.Number({ description: 'Rental per 30 days' }), account_id: nullable(Uuid, 'Its holder, or null in the pool'),
        }, { description: 'The number is added' }),
      },
    },
  }, async (request, reply) => reply.status(201).send(await admin.addNumber(operatorActor(request.ip, operatorOf(request)), request.body)));

  await app.register(adminListRoutes, { admin });
  await app.register(smppBindAdminRoutes, { smppCredentials: deps.smppCredentials });
  await app.register(adminAuditRoutes, { audit: deps.audit });
  await app.register(outboxRoutes, { mail: deps.mail });
  await app.register(operatorRoutes, { operators: deps.operators });

  // Development only: answers while this process runs the built-in SMSC (SMPP_HOST unset), else 404.
  app.post('/admin/simulator/inbound', {
    config: { contract: { sample: { body: { from: '+61412345678', to: '+61400000000', text: 'Yes, see you Tuesday' } }, response: { ok: true }, errors: ['not_found', 'service_unavailable'] } },
    schema: {
      tags, security, summary: 'Make the built-in SMSC send an inbound (MO) message',
      description: 'For development and tests: the built-in SMSC delivers a message as if a phone had sent it, through the real SMPP path, and this answers once Tasman has acknowledged it (it is then in the inbox and its webhook is queued). 404 in a process that runs no built-in SMSC (SMPP_HOST set). Operator token or console session.',
      body: Type.Object({
        from: Type.String({ minLength: 1, maxLength: 20, description: 'The sender\'s number, E.164' }),
        to: Type.String({ minLength: 1, maxLength: 20, description: 'The service number it is sent to' }),
        text: Type.String({ maxLength: 1600, description: 'The message text' }),
      }, { description: 'The message the phone sends' }),
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
