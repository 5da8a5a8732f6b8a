import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';
import { AdminAuditQuery, AuditPage, AuditQuery } from './audit.schemas.ts';

const tags = ['Audit log'];

// The account's audit log (docs/audit-log.md). Read-only by design: there is no route that changes or deletes an
// entry.
export const auditRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/audit', {
    config: { contract: { errors: ['not_found', 'hierarchy_not_enabled', 'not_managed_by_parent'] }, scope: 'manage' },
    schema: {
      tags, summary: 'The account\'s audit log, newest first: who changed what, from where, and refused attempts',
      querystring: AuditQuery, response: { 200: AuditPage },
    },
  }, async (request) => services.audit.list(request.actor, request.query));
};

/** GET /admin/audit: registered inside adminRoutes, so the operator token guards it like every /admin route. */
export const adminAuditRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/admin/audit', {
    config: { contract: {} },
    schema: {
      tags: ['Operator'], security: [{ adminToken: [] }],
      summary: 'The audit log across accounts, with the operator\'s own actions, newest first',
      querystring: AdminAuditQuery, response: { 200: AuditPage },
    },
  }, async (request) => services.audit.listAll(request.query));
};
