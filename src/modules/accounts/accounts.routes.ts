import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emptyBodyIsObject, Ok } from '../../platform/http/schemas.ts';
import type { AccountService } from './accounts.service.ts';
import type { AccountKeyService } from './account-keys.service.ts';
import { EX } from '../../platform/http/examples.ts';
import { IdempotencyHeaders, type Idempotency } from '../../platform/http/idempotency.ts';
import { CreateKey, KEY_CREATED_EXAMPLE, KEY_LIST_EXAMPLE, KeyCreated, KeyList } from '../keys/keys.schemas.ts';
import {
  ACCOUNT_EXAMPLE, AccountIdParams, AccountList, subAccountContract, subAccountWriteContract, AccountResponse, Balance, CloseResult, CreateSubAccount,
  KeyParams, PatchResult, PatchSubAccount, SubAccountCreated, TransferRequest, TransferResult,
} from './accounts.schemas.ts';

const tags = ['Sub-accounts'];
const keyTags = ['API keys'];
const transferred = (direction: 'allocate' | 'recall') => ({ ok: true, direction, amount: 5, credits: direction === 'allocate' ? 1005 : 995, parent_credits: direction === 'allocate' ? 8995 : 9005 });


/** The services these routes call, and nothing else. */
export type AccountRoutesDeps = { accounts: AccountService; accountKeys: AccountKeyService; idempotency: Idempotency };

// Sub-accounts, their credits and their keys. Every handler goes through the service, which calls
// loadManagedAccount (access.ts) before touching the sub-account.
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesDeps> = async (app, { accounts, accountKeys, idempotency }) => {
  app.get('/accounts', {
    config: {
      contract: {
        errors: ['hierarchy_not_enabled'],
        response: { accounts: [
          { id: EX.account, business_name: 'Harbour Dental Group', parent_account_id: null, created_at: EX.created, account_status: 'active', credits: 9000 },
          { id: EX.subAccount, business_name: 'Harbour Dental Manly', parent_account_id: EX.account, created_at: EX.created, account_status: 'active', credits: 1000 },
        ] },
      },
      scope: 'read',
    },
    schema: {
      tags, summary: 'The caller\'s sub-accounts',
      description: 'Lists the calling account first, then its open sub-accounts, with their status and credit balance (closed ones are left out). Needs hierarchy enabled on the caller by the operator (403 hierarchy_not_enabled otherwise) and the read scope.',
      response: { 200: AccountList },
    },
  }, async (request) => accounts.list(request.actor));

  app.post('/accounts', {
    config: {
      contract: {
        sample: { body: { business_name: 'Harbour Dental Manly', email: 'manly@harbourdental.example', daily_limit: 2000, seed_credits: 100 } },
        response: { account_id: EX.subAccount, id: EX.subAccount, email: 'manly@harbourdental.example', account: ACCOUNT_EXAMPLE },
        errors: ['hierarchy_not_enabled', 'not_a_parent', 'email_taken', 'insufficient_credits'],
      },
      scope: 'manage',
    },
    schema: {
      tags, summary: 'Create a sub-account',
      description: 'Creates a sub-account one level below the caller, with its own balance, keys, numbers and opt-out list, and moves `seed_credits` from the caller\'s balance into it in the same transaction (402 insufficient_credits if the caller holds fewer; nothing is created then). It has no API key yet: issue one with POST /account/{id}/key. The email must be unique within the group (409 email_taken). A sub-account cannot create sub-accounts (403 not_a_parent). Needs hierarchy enabled on the caller and the manage scope. Not idempotent: each call creates an account.',
      body: CreateSubAccount, response: { 201: SubAccountCreated },
    },
  }, async (request, reply) => reply.status(201).send(await accounts.create(request.actor, request.body)));

  app.get('/account/:id', {
    config: { contract: subAccountContract({ response: { account: ACCOUNT_EXAMPLE } }), scope: 'read' },
    schema: {
      tags, summary: 'A sub-account',
      description: 'One sub-account\'s settings, balance and counts. Only the caller\'s own open sub-accounts are found: any other id, a closed one, the caller itself or its parent answer 404, never saying which. Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: AccountResponse },
    },
  }, async (request) => accounts.get(request.actor, request.params.id));

  app.patch('/account/:id', {
    config: { contract: subAccountWriteContract({
      sample: { body: { business_name: 'Harbour Dental Manly', daily_limit: 5000, inherit_parent_senders: true } },
      response: { ok: true, account: { ...ACCOUNT_EXAMPLE, daily_send_limit: 5000 } },
      errors: ['email_taken'],
    }), scope: 'manage' },
    schema: {
      tags, summary: 'Change a sub-account\'s settings',
      description: 'Changes only the fields given, in one transaction, and answers the sub-account as it now is. Besides the hierarchy fields it takes the sending settings PUT /settings takes (quiet hours, time zone, link tracking). A sub-account that manages itself (managed_by_parent false) refuses with 403 not_managed_by_parent. Setting an ABN here does not verify it: it unlocks no Sender ID. Needs the manage scope. Idempotent: the same body twice leaves the same account.',
      params: AccountIdParams, body: PatchSubAccount, response: { 200: PatchResult },
    },
  }, async (request) => accounts.patch(request.actor, request.params.id, request.body));

  app.delete('/account/:id', {
    config: { contract: subAccountWriteContract({ response: { ok: true, credits_returned: 1000, scheduled_for_deletion: false } }), scope: 'manage' },
    schema: {
      tags, summary: 'Close a sub-account: keys revoked, credits and numbers back to the parent',
      description: 'Closes the sub-account at once, in one transaction: its remaining credits move back to the caller, every API key is revoked (they answer 401 from now on) and its dedicated numbers return to the caller. Its messages and reports are kept (the group report still counts them), but the API answers 404 for it from then on, so a second close answers 404. Needs the manage scope, and the sub-account must be managed by the parent.',
      params: AccountIdParams, response: { 200: CloseResult },
    },
  }, async (request) => accounts.close(request.actor, request.params.id));

  app.get('/account/:id/balance', {
    config: { contract: subAccountContract({ response: { credits: 1000 } }), scope: 'read' },
    schema: {
      tags, summary: 'A sub-account\'s credits',
      description: 'The sub-account\'s credit balance (one credit per message part). Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: Balance },
    },
  }, async (request) => accounts.balance(request.actor, request.params.id));

  app.post('/account/:id/credits/allocate', {
    config: {
      contract: subAccountWriteContract({
        sample: { body: { amount: 5 } }, response: transferred('allocate'), errors: ['insufficient_credits', 'idempotency_in_flight', 'idempotency_mismatch'],
      }),
      scope: 'billing',
    },
    schema: {
      tags, summary: 'Move credits from the parent to the sub-account',
      description: 'Moves `amount` credits from the caller\'s balance to the sub-account\'s in one transaction, recorded in both ledgers; 402 insufficient_credits if the caller holds fewer, and nothing moves. Allowed even when the sub-account manages itself. Needs the billing permission. Each call moves the amount again unless it carries an Idempotency-Key, which replays the first answer as on /send.',
      params: AccountIdParams, body: TransferRequest, headers: IdempotencyHeaders, response: { 200: TransferResult },
    },
  }, async (request, reply) => idempotency.run(request, reply, `account/${request.params.id}/credits/allocate`,
    (within) => accounts.transfer(request.actor, request.params.id, request.body.amount, 'allocate', within)));

  app.post('/account/:id/credits/recall', {
    config: { contract: subAccountWriteContract({ sample: { body: { amount: 5 } }, response: transferred('recall'), errors: ['insufficient_credits'] }), scope: 'billing' },
    schema: {
      tags, summary: 'Move credits from the sub-account back to the parent',
      description: 'Moves `amount` credits from the sub-account back to the caller in one transaction; 402 insufficient_credits if the sub-account holds fewer, and nothing moves. Only for a sub-account the parent manages (403 not_managed_by_parent otherwise). Needs the billing permission. Not idempotent: each call moves the amount again.',
      params: AccountIdParams, body: TransferRequest, response: { 200: TransferResult },
    },
  }, async (request) => accounts.transfer(request.actor, request.params.id, request.body.amount, 'recall'));

  app.get('/account/:id/keys', {
    config: { contract: subAccountContract({ response: KEY_LIST_EXAMPLE }), scope: 'read' },
    schema: {
      tags: keyTags, summary: 'A sub-account\'s API keys (never the keys themselves)',
      description: 'Lists the sub-account\'s keys, revoked ones included, by prefix, scopes and last use; a key\'s secret is shown only when it is issued. Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: KeyList },
    },
  }, async (request) => accountKeys.list(request.actor, request.params.id));

  app.post('/account/:id/key', {
    config: { contract: subAccountWriteContract({ sample: { body: { name: 'ci', scopes: ['read', 'send'] } }, response: KEY_CREATED_EXAMPLE }), scope: 'manage' },
    preValidation: emptyBodyIsObject,
    schema: {
      tags: keyTags, summary: 'Issue an API key for a sub-account',
      description: 'Creates a key for the sub-account that works at once and answers it in full in `key`, this once (only its hash is kept). Its scopes are at most the calling key\'s own. Only for a sub-account the parent manages. Needs the manage scope. Not idempotent: each call makes a new key.',
      params: AccountIdParams, body: CreateKey, response: { 201: KeyCreated },
    },
  }, async (request, reply) => reply.status(201).send(await accountKeys.create(request.actor, request.params.id, request.body)));

  app.delete('/account/:id/key/:keyId', {
    config: { contract: subAccountWriteContract({ response: { ok: true } }), scope: 'manage' },
    schema: {
      tags: keyTags, summary: 'Revoke a sub-account\'s API key',
      description: 'Revokes the key at once: later requests with it answer 401. Revoking it again answers 200; a key id the sub-account does not have answers 404. Only for a sub-account the parent manages. Needs the manage scope.',
      params: KeyParams, response: { 200: Ok },
    },
  }, async (request) => accountKeys.revoke(request.actor, request.params.id, request.params.keyId));
};
