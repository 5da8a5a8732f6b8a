import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditService } from './audit.service.ts';
import { AdminAuditQuery, AUDIT_EXAMPLE, AuditPage, AuditQuery } from './audit.schemas.ts';

const tags = ['Audit log'];

/** The services these routes call, and nothing else. */
export type AuditRoutesDeps = { audit: AuditService };

// The account's audit log (docs/audit-log.md). Read-only by design: there is no route that changes or deletes an
// entry.
export const auditRoutes: FastifyPluginAsyncTypebox<AuditRoutesDeps> = async (app, { audit }) => {
  app.get('/audit', {
    config: { contract: { errors: ['not_found', 'hierarchy_not_enabled', 'not_managed_by_parent'], response: AUDIT_EXAMPLE }, scope: 'manage' },
    schema: {
      tags, summary: 'The account\'s audit log, newest first: who changed what, from where, and refused attempts',
      description: 'Pages through the account\'s audit entries, newest first: keys issued and revoked, team changes, webhook and settings changes, credit moves, sign-ins, and refused attempts, each with who, from which address, and the fields before and after (secrets redacted). Filter by actor, action, target, outcome and time; a parent may read a sub-account it manages with account_id. Reads only; nothing changes or deletes an entry. Needs the manage scope.',
      querystring: AuditQuery, response: { 200: AuditPage },
    },
  }, async (request) => audit.list(request.actor, request.query));
};

/** GET /admin/audit: registered inside adminRoutes, so the operator token guards it like every /admin route. */
export const adminAuditRoutes: FastifyPluginAsyncTypebox<AuditRoutesDeps> = async (app, { audit }) => {
  app.get('/admin/audit', {
    config: { contract: { response: AUDIT_EXAMPLE } },
    schema: {
      tags: ['Operator'], security: [{ adminToken: [] }],
      summary: 'The audit log across accounts, with the operator\'s own actions, newest first',
      description: 'The audit entries of every account and the operator-wide ones (the operator\'s own actions), newest first, with the same filters as GET /audit and account_id to narrow to one account. Reads only. Operator token or console session.',
      querystring: AdminAuditQuery, response: { 200: AuditPage },
    },
  }, async (request) => audit.listAll(request.query));
};
