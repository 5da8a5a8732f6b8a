import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../platform/http/schemas.ts';
import type { ReportService } from './reports.service.ts';
import { subAccountContract } from '../accounts/accounts.schemas.ts';
import { DailyReport, GroupReport, RangeQuery, REPORT_EXAMPLES, ReportQuery, UsageReport } from './reports.schemas.ts';

const USAGE = 'Counts over a range of Sydney days (default the last 30): outbound messages by outcome and their parts, credits consumed (send debits less refunds; transfers are not usage), inbound messages and opt-outs, optionally narrowed by direction, status, country, campaign, text or number. A range reversed or longer than allowed answers 400 invalid_range.';

/** The services these routes call, and nothing else. */
export type ReportRoutesDeps = { reports: ReportService };

export const reportRoutes: FastifyPluginAsyncTypebox<ReportRoutesDeps> = async (app, { reports }) => {
  app.get('/report', {
    config: { contract: { errors: ['invalid_range'], response: REPORT_EXAMPLES.usage }, scope: 'read' },
    schema: {
      tags: ['Reporting'], summary: 'Usage summary of the caller\'s account',
      description: `${USAGE} Needs the read scope.`,
      querystring: ReportQuery, response: { 200: UsageReport },
    },
  }, async (request) => reports.own(request.actor, request.query));

  app.get('/report/daily', {
    config: { contract: { errors: ['invalid_range'], response: REPORT_EXAMPLES.daily }, scope: 'read' },
    schema: {
      tags: ['Reporting'], summary: 'Outbound messages per Sydney day (created, sent, delivered, failed)',
      description: 'A daily series of the caller\'s outbound messages and their outcomes, and of inbound messages, over a range of Sydney days (default the last 30), one entry per day including empty ones: what the dashboard charts and downloads. Takes the filters of GET /report and narrows each day\'s counters as it narrows the totals. A reversed or too long range answers 400 invalid_range. Needs the read scope.',
      querystring: ReportQuery, response: { 200: DailyReport },
    },
  }, async (request) => reports.daily(request.actor, request.query));

  app.get('/account/:id/report', {
    config: { contract: subAccountContract({ errors: ['invalid_range'], response: { ...REPORT_EXAMPLES.usage, account_id: REPORT_EXAMPLES.group.accounts[1]!.account_id } }), scope: 'read' },
    schema: {
      tags: ['Reporting'], summary: 'Usage summary of one sub-account (parent only)',
      description: `The GET /report summary for one of the caller\'s sub-accounts, closed ones included (their history stays). ${USAGE} Needs hierarchy enabled on the caller and the read scope.`,
      params: IdParams, querystring: ReportQuery, response: { 200: UsageReport },
    },
  }, async (request) => reports.subAccount(request.actor, request.params.id, request.query));

  app.get('/account/:id/report/daily', {
    config: { contract: subAccountContract({ errors: ['invalid_range'], response: REPORT_EXAMPLES.daily }), scope: 'read' },
    schema: {
      tags: ['Reporting'], summary: 'One sub-account\'s outbound messages per Sydney day (parent only)',
      description: 'The GET /report/daily series for one of the caller\'s sub-accounts, closed ones included, with the same filters. Needs hierarchy enabled on the caller and the read scope.',
      params: IdParams, querystring: ReportQuery, response: { 200: DailyReport },
    },
  }, async (request) => reports.subAccountDaily(request.actor, request.params.id, request.query));

  app.get('/report/group', {
    config: { contract: { errors: ['hierarchy_not_enabled', 'invalid_range'], response: REPORT_EXAMPLES.group }, scope: 'read' },
    schema: {
      tags: ['Reporting'], summary: 'Usage of the caller and every sub-account',
      description: 'One row per account of the group (the caller, then each sub-account, closed ones included) with credits consumed, delivery rate, message counters, inbound messages and opt-outs over a range of Sydney days, and the grand total. Needs hierarchy enabled on the caller (403 hierarchy_not_enabled otherwise) and the read scope.',
      querystring: RangeQuery, response: { 200: GroupReport },
    },
  }, async (request) => reports.group(request.actor, request.query));
};
