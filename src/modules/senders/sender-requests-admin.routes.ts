import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import { operatorOf, requireAdminToken, type OperatorSessionAuth } from '../../platform/http/auth.ts';
import { operatorActor } from '../../platform/audit/entry.ts';
import type { SenderRequestService } from './sender-requests.service.ts';
import { OPERATOR_REQUEST_EXAMPLE, OperatorSenderIdRequest, RejectBody, ReviewQuery } from './sender-requests.schemas.ts';

const tags = ['Operator'];
const security = [{ adminToken: [] }];

/** The services these routes call, and the operator's credentials. */
export type SenderRequestAdminRoutesDeps = { senderRequests: SenderRequestService; adminToken: string | null; operatorSessions: OperatorSessionAuth };

// The operator's review of Sender ID requests (`tasman admin sender-id requests|approve|reject`, the console).
export const senderRequestAdminRoutes: FastifyPluginAsyncTypebox<SenderRequestAdminRoutesDeps> = async (app, { senderRequests, adminToken, operatorSessions }) => {
  requireAdminToken(app, adminToken, operatorSessions);
  const approved = { ...OPERATOR_REQUEST_EXAMPLE, status: 'approved', reviewed_at: '2026-11-21T01:02:03.456Z', registration_id: '01938f2f-9e13-7d64-8a7b-5c2f0e1b4d88' };

  app.get('/admin/sender-id-requests', {
    config: { contract: { response: { requests: [OPERATOR_REQUEST_EXAMPLE], total: 1, limit: 25, offset: 0 } } },
    schema: {
      tags, security, summary: 'Sender ID requests to review, oldest first',
      description: 'The accounts\' Sender ID requests, oldest first: by default those waiting for review, or those approved, rejected or all. Reads only. Operator token or console session.',
      querystring: ReviewQuery,
      response: {
        200: Type.Object({
          requests: Type.Array(OperatorSenderIdRequest, { description: 'The page' }),
          total: Type.Integer({ description: 'Requests in this status, over all pages' }),
          limit: Type.Integer({ description: 'The page size used' }), offset: Type.Integer({ description: 'The offset used' }),
        }, { description: 'A page of requests' }),
      },
    },
  }, async (request) => senderRequests.toReview(request.query));

  app.post('/admin/sender-id-requests/:id/approve', {
    config: { contract: { response: approved, errors: ['not_found', 'conflict'] } },
    schema: {
      tags, security, summary: 'Approve a Sender ID request (after checking the national register)',
      description: 'Registers the Sender ID to the ABN and the account that asked (as POST /admin/sender-ids with account_id does), so that account may send as it, and marks the request approved. A request already approved or rejected answers 409 conflict. Operator token or console session.',
      params: IdParams, response: { 200: OperatorSenderIdRequest },
    },
  }, async (request) => senderRequests.review(operatorActor(request.ip, operatorOf(request)), request.params.id, { approve: true }));

  app.post('/admin/sender-id-requests/:id/reject', {
    config: {
      contract: {
        sample: { body: { reason: 'The national register names another business for this Sender ID' } },
        response: { ...OPERATOR_REQUEST_EXAMPLE, status: 'rejected', reason: 'The national register names another business for this Sender ID', reviewed_at: '2026-11-21T01:02:03.456Z' },
        errors: ['not_found', 'conflict'],
      },
    },
    schema: {
      tags, security, summary: 'Reject a Sender ID request, with the reason',
      description: 'Marks the request rejected with the reason the account will read in GET /sender-ids; nothing is registered. A request already approved or rejected answers 409 conflict. Operator token or console session.',
      params: IdParams, body: RejectBody, response: { 200: OperatorSenderIdRequest },
    },
  }, async (request) => senderRequests.review(operatorActor(request.ip, operatorOf(request)), request.params.id, { approve: false, reason: request.body.reason }));
};
