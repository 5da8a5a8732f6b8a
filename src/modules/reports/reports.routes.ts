import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { Services } from '../../compose.ts';
import { subAccountContract } from '../accounts/accounts.schemas.ts';
import { DailyReport, GroupReport, RangeQuery, ReportQuery, UsageReport } from './reports.schemas.ts';

export const reportRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { reports } = services;

  app.get('/report', {
    config: { contract: { errors: ['invalid_range'] }, scope: 'read' },
    schema: { tags: ['Reporting'], summary: 'Usage summary of the caller\'s account', querystring: ReportQuery, response: { 200: UsageReport } },
  }, async (request) => reports.own(request.actor, request.query));

  app.get('/report/daily', {
    config: { contract: { errors: ['invalid_range'] }, scope: 'read' },
    schema: { tags: ['Reporting'], summary: 'Outbound messages per Sydney day (created, sent, delivered, failed)', querystring: RangeQuery, response: { 200: DailyReport } },
  }, async (request) => reports.daily(request.actor, request.query));

  app.get('/account/:id/report', {
    config: { contract: subAccountContract({ errors: ['invalid_range'] }), scope: 'read' },
    schema: { tags: ['Reporting'], summary: 'Usage summary of one sub-account (parent only)', params: IdParams, querystring: ReportQuery, response: { 200: UsageReport } },
  }, async (request) => reports.subAccount(request.actor, request.params.id, request.query));

  app.get('/account/:id/report/daily', {
    config: { contract: subAccountContract({ errors: ['invalid_range'] }), scope: 'read' },
    schema: { tags: ['Reporting'], summary: 'One sub-account\'s outbound messages per Sydney day (parent only)', params: IdParams, querystring: RangeQuery, response: { 200: DailyReport } },
  }, async (request) => reports.subAccountDaily(request.actor, request.params.id, request.query));

  app.get('/report/group', {
    config: { contract: { errors: ['hierarchy_not_enabled', 'invalid_range'] }, scope: 'read' },
    schema: { tags: ['Reporting'], summary: 'Usage of the caller and every sub-account', querystring: RangeQuery, response: { 200: GroupReport } },
  }, async (request) => reports.group(request.actor, request.query));
};
