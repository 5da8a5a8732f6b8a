import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emptyBodyIsObject, Ok } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { CreateKey, KeyCreated, KeyList } from '../keys/keys.schemas.ts';
import {
  AccountIdParams, AccountList, subAccountContract, subAccountWriteContract, AccountResponse, Balance, CloseResult, CreateSubAccount,
  KeyParams, PatchResult, PatchSubAccount, SubAccountCreated, TransferRequest, TransferResult,
} from './accounts.schemas.ts';

const tags = ['Account management'];


// Sub-accounts, their credits and their keys. Every handler goes through the service, which calls
// loadManagedAccount (access.ts) before touching the sub-account.
export const accountRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { accounts, accountKeys } = services;

  app.get('/accounts', {
    config: { contract: { errors: ['hierarchy_not_enabled'] }, scope: 'read' },
    schema: { tags, summary: 'The caller\'s sub-accounts', response: { 200: AccountList } },
  }, async (request) => accounts.list(request.actor));

  app.post('/accounts', {
    config: {
      contract: {
        sample: { body: { business_name: 'Branch office' } },
        errors: ['hierarchy_not_enabled', 'not_a_parent', 'email_taken', 'insufficient_credits'],
      },
      scope: 'manage',
    },
    schema: { tags, summary: 'Create a sub-account', body: CreateSubAccount, response: { 201: SubAccountCreated } },
  }, async (request, reply) => reply.status(201).send(await accounts.create(request.actor, request.body)));

  app.get('/account/:id', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account', params: AccountIdParams, response: { 200: AccountResponse } },
  }, async (request) => accounts.get(request.actor, request.params.id));

  app.patch('/account/:id', {
    config: { contract: subAccountWriteContract({ sample: { body: { business_name: 'Renamed', inherit_parent_senders: true } }, errors: ['email_taken'] }), scope: 'manage' },
    schema: { tags, summary: 'Change a sub-account\'s settings', params: AccountIdParams, body: PatchSubAccount, response: { 200: PatchResult } },
  }, async (request) => accounts.patch(request.actor, request.params.id, request.body));

  app.delete('/account/:id', {
    config: { contract: subAccountWriteContract(), scope: 'manage' },
    schema: { tags, summary: 'Close a sub-account: keys revoked, credits and numbers back to the parent', params: AccountIdParams, response: { 200: CloseResult } },
  }, async (request) => accounts.close(request.actor, request.params.id));

  app.get('/account/:id/balance', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account\'s credits', params: AccountIdParams, response: { 200: Balance } },
  }, async (request) => accounts.balance(request.actor, request.params.id));

  app.post('/account/:id/credits/allocate', {
    config: { contract: subAccountWriteContract({ sample: { body: { amount: 1 } }, errors: ['insufficient_credits'] }), scope: 'manage' },
    schema: { tags, summary: 'Move credits from the parent to the sub-account', params: AccountIdParams, body: TransferRequest, response: { 200: TransferResult } },
  }, async (request) => accounts.transfer(request.actor, request.params.id, request.body.amount, 'allocate'));

  app.post('/account/:id/credits/recall', {
    config: { contract: subAccountWriteContract({ sample: { body: { amount: 1 } }, errors: ['insufficient_credits'] }), scope: 'manage' },
    schema: { tags, summary: 'Move credits from the sub-account back to the parent', params: AccountIdParams, body: TransferRequest, response: { 200: TransferResult } },
  }, async (request) => accounts.transfer(request.actor, request.params.id, request.body.amount, 'recall'));

  app.get('/account/:id/keys', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account\'s API keys (never the keys themselves)', params: AccountIdParams, response: { 200: KeyList } },
  }, async (request) => accountKeys.list(request.actor, request.params.id));

  app.post('/account/:id/key', {
    config: { contract: subAccountWriteContract({ sample: { body: { name: 'new' } } }), scope: 'manage' },
    preValidation: emptyBodyIsObject,
    schema: { tags, summary: 'Issue an API key for a sub-account', params: AccountIdParams, body: CreateKey, response: { 201: KeyCreated } },
  }, async (request, reply) => reply.status(201).send(await accountKeys.create(request.actor, request.params.id, request.body)));

  app.delete('/account/:id/key/:keyId', {
    config: { contract: subAccountWriteContract(), scope: 'manage' },
    schema: { tags, summary: 'Revoke a sub-account\'s API key', params: KeyParams, response: { 200: Ok } },
  }, async (request) => accountKeys.revoke(request.actor, request.params.id, request.params.keyId));
};
