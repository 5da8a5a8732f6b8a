import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EX } from '../../platform/http/examples.ts';
import { emptyBodyIsObject } from '../../platform/http/schemas.ts';
import type { NumberService } from './numbers.service.ts';
import { AccountIdParams, subAccountContract, subAccountWriteContract } from '../accounts/accounts.schemas.ts';
import {
  Assigned, AvailableList, AvailableQuery, GroupNumberList, HELD_NUMBER_EXAMPLE, MoveRequest, NumberList, PurchaseRequest, Purchased, Recalled,
} from './numbers.schemas.ts';

const NUMBERS_EXAMPLE = { numbers: [HELD_NUMBER_EXAMPLE] };
const MOVE_SAMPLE = { numbers: ['+61480000123'] };

const tags = ['Numbers'];

/** The services these routes call, and nothing else. */
export type NumberRoutesDeps = { numbers: NumberService };

export const numberRoutes: FastifyPluginAsyncTypebox<NumberRoutesDeps> = async (app, { numbers }) => {
  app.get('/numbers', {
    config: { contract: { response: NUMBERS_EXAMPLE }, scope: 'read' },
    schema: {
      tags, summary: 'The caller\'s dedicated numbers',
      description: 'The dedicated numbers the calling account holds, rented or assigned, with their rental status. Any of them can be a message\'s sender, and replies to them arrive in the inbox; the first is the default sender. Needs the read scope.',
      response: { 200: NumberList },
    },
  }, async (request) => numbers.mine(request.actor));

  app.get('/numbers/group', {
    config: { contract: { errors: ['hierarchy_not_enabled'], response: { numbers: [{ ...HELD_NUMBER_EXAMPLE, account_id: EX.account, business_name: 'Harbour Dental Group' }] } }, scope: 'read' },
    schema: {
      tags, summary: 'Numbers across the caller and its sub-accounts',
      description: 'Every dedicated number held by the caller or one of its open sub-accounts, each with its holder. Needs hierarchy enabled on the caller (403 hierarchy_not_enabled otherwise) and the read scope.',
      response: { 200: GroupNumberList },
    },
  }, async (request) => numbers.group(request.actor));

  app.get('/numbers/available', {
    config: { contract: { response: { numbers: [{ id: EX.number, number: '+61480000123', country: 'AU', price_monthly: 9.9 }], limit: 20, offset: 0 } }, scope: 'read' },
    schema: {
      tags, summary: 'Numbers free to purchase',
      description: 'A page of the pool: numbers the operator has added that nobody holds, with their monthly price. Lease one with POST /numbers/purchase. Needs the read scope.',
      querystring: AvailableQuery, response: { 200: AvailableList },
    },
  }, async (request) => numbers.available(request.actor, request.query));

  app.post('/numbers/purchase', {
    config: {
      contract: {
        sample: { body: { number: '+61480000123', label: 'Reception' } },
        response: {
          ok: true, number: '+61480000123', number_id: EX.number, label: 'Reception', status: 'active', billing_reference: null, country: 'AU',
          price_monthly: 9.9, credits_charged: 330, credits_remaining: 670, paid_until: '2026-12-27T22:04:10.512Z',
        },
        errors: ['invalid_number', 'number_limit_reached', 'number_unavailable', 'insufficient_credits'],
      },
      scope: 'billing',
    },
    preValidation: emptyBodyIsObject,
    schema: {
      tags, summary: 'Lease a number from the pool to the caller, charging its first 30 days in credits',
      description: 'Leases the pool number named, or the first free one of the country (or of either), and charges its first 30 days in credits in the same transaction: price_monthly at the service\'s credit price, rounded up. 402 insufficient_credits and nothing leased when the balance is short; 409 number_unavailable when the number is not free; 403 number_limit_reached when the account holds its maximum already. The rental renews from the balance every 30 days; an unpaid renewal leaves the number past_due for a 7-day grace before it returns to the pool. Needs the billing permission. Not idempotent: a second call leases another number.',
      body: PurchaseRequest, response: { 200: Purchased },
    },
  }, async (request) => numbers.purchase(request.actor, request.body));

  app.get('/account/:id/numbers', {
    config: { contract: subAccountContract({ response: { numbers: [{ ...HELD_NUMBER_EXAMPLE, assigned_to: EX.subAccount, paid_until: null, label: null }] } }), scope: 'read' },
    schema: {
      tags, summary: 'A sub-account\'s numbers',
      description: 'The dedicated numbers a sub-account holds. Needs hierarchy enabled on the caller and the read scope.',
      params: AccountIdParams, response: { 200: NumberList },
    },
  }, async (request) => numbers.forAccount(request.actor, request.params.id));

  app.post('/account/:id/numbers/assign', {
    config: { contract: subAccountWriteContract({ sample: { body: MOVE_SAMPLE }, response: { ok: true, assigned: ['+61480000123'] }, errors: ['invalid_number', 'number_unavailable'] }), scope: 'billing' },
    schema: {
      tags, summary: 'Move the parent\'s numbers to a sub-account',
      description: 'Moves numbers the caller holds to the sub-account, all or none, in one transaction: from then on the sub-account sends from them and receives their replies. A number the sub-account holds already counts as assigned (so a retry succeeds); any other number the caller does not hold answers 409 number_unavailable and nothing moves. Only for a sub-account the parent manages. Needs the billing permission.',
      params: AccountIdParams, body: MoveRequest, response: { 200: Assigned },
    },
  }, async (request) => numbers.assign(request.actor, request.params.id, request.body.numbers));

  app.post('/account/:id/numbers/recall', {
    config: { contract: subAccountWriteContract({ sample: { body: MOVE_SAMPLE }, response: { ok: true, recalled: ['+61480000123'] }, errors: ['invalid_number', 'number_unavailable'] }), scope: 'billing' },
    schema: {
      tags, summary: 'Move numbers from a sub-account back to the parent',
      description: 'Moves numbers the sub-account holds back to the caller, all or none, in one transaction; a number it does not hold answers 409 number_unavailable and nothing moves. Only for a sub-account the parent manages. Needs the billing permission.',
      params: AccountIdParams, body: MoveRequest, response: { 200: Recalled },
    },
  }, async (request) => numbers.recall(request.actor, request.params.id, request.body.numbers));
};
