import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emptyBodyIsObject } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { AccountIdParams, subAccountContract, subAccountWriteContract } from '../accounts/accounts.schemas.ts';
import {
  Assigned, AvailableList, AvailableQuery, GroupNumberList, MoveRequest, NumberList, PurchaseRequest, Purchased, Recalled,
} from './numbers.schemas.ts';

const tags = ['Numbers'];

export const numberRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { numbers } = services;

  app.get('/numbers', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'The caller\'s dedicated numbers', response: { 200: NumberList } },
  }, async (request) => numbers.mine(request.actor));

  app.get('/numbers/group', {
    config: { contract: { errors: ['hierarchy_not_enabled'] }, scope: 'read' },
    schema: { tags, summary: 'Numbers across the caller and its sub-accounts', response: { 200: GroupNumberList } },
  }, async (request) => numbers.group(request.actor));

  app.get('/numbers/available', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'Numbers free to purchase', querystring: AvailableQuery, response: { 200: AvailableList } },
  }, async (request) => numbers.available(request.actor, request.query));

  app.post('/numbers/purchase', {
    config: {
      contract: { sample: { body: { country: 'AU' } }, errors: ['invalid_number', 'number_limit_reached', 'number_unavailable', 'insufficient_credits'] },
      scope: 'manage',
    },
    preValidation: emptyBodyIsObject,
    schema: { tags, summary: 'Lease a number from the pool to the caller, charging its first 30 days in credits', body: PurchaseRequest, response: { 200: Purchased } },
  }, async (request) => numbers.purchase(request.actor, request.body));

  app.get('/account/:id/numbers', {
    config: { contract: subAccountContract(), scope: 'read' },
    schema: { tags, summary: 'A sub-account\'s numbers', params: AccountIdParams, response: { 200: NumberList } },
  }, async (request) => numbers.forAccount(request.actor, request.params.id));

  app.post('/account/:id/numbers/assign', {
    config: { contract: subAccountWriteContract({ sample: { body: { numbers: ['+61412345678'] } }, errors: ['invalid_number', 'number_unavailable'] }), scope: 'manage' },
    schema: { tags, summary: 'Move the parent\'s numbers to a sub-account', params: AccountIdParams, body: MoveRequest, response: { 200: Assigned } },
  }, async (request) => numbers.assign(request.actor, request.params.id, request.body.numbers));

  app.post('/account/:id/numbers/recall', {
    config: { contract: subAccountWriteContract({ sample: { body: { numbers: ['+61412345678'] } }, errors: ['invalid_number', 'number_unavailable'] }), scope: 'manage' },
    schema: { tags, summary: 'Move numbers from a sub-account back to the parent', params: AccountIdParams, body: MoveRequest, response: { 200: Recalled } },
  }, async (request) => numbers.recall(request.actor, request.params.id, request.body.numbers));
};
