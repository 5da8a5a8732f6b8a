import { Type, type TObject } from '@fastify/type-provider-typebox';
import { Uuid } from '../../platform/http/schemas.ts';
import { Balance, TransferRequest, TransferResult, AccountList } from '../accounts/accounts.schemas.ts';
import { CampaignPage, CampaignResponse } from '../campaigns/campaigns.routes.ts';
import { InboxList, InboxQuery } from '../inbox/inbox.schemas.ts';
import {
  BatchRequest, BatchResult, CancelResult, MessageDetail, MessageList, MessageListQuery, ReplyRequest, SendPreview, SendRequest, SendResult,
} from '../messages/messages.schemas.ts';
import type { BatchInput } from '../messages/messages.service.ts';
import { NumberList } from '../numbers/numbers.schemas.ts';
import { AddResult, NumberBody, OptoutList } from '../optouts/optouts.routes.ts';
import { ReportQuery, UsageReport } from '../reports/reports.schemas.ts';
import { SettingsResponse } from '../settings/settings.schemas.ts';
import { estimateBatchCredits, estimateSendCredits } from './credit-estimate.ts';
import type { ApiRequest, OperationName } from './operations.ts';

// Every MCP tool: the REST operation it calls, its input (built from that route's own request schemas, so the
// same limits apply) and its output (the route's 200 schema). `credits` is the most the call could spend or
// move, checked against MCP_MAX_CREDITS_PER_CALL before anything happens.

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  op: OperationName;
  input: TObject;
  output: TObject;
  annotations: ToolAnnotations;
  request(args: Record<string, unknown>): ApiRequest;
  credits?(args: Record<string, unknown>, optoutLink: string): number;
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
// Spending credits cannot be undone and reaches real phones: clients that confirm destructive calls confirm these.
const SPENDS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

// A read tool on a route that takes nothing: no arguments, an empty request.
const READ_NOTHING = { input: Type.Object({}), annotations: READ, request: (): ApiRequest => ({}) };

/**
 * A tool on a route with an `:id` in its path: the id comes in as `idArg` (message_id, account_id…) beside the
 * fields of `rest`, and goes into the path; the other arguments go as the route's body or query.
 */
function onId(idArg: string, rest: TObject = Type.Object({}), into: 'body' | 'query' = 'body') {
  return {
    input: Type.Object({ [idArg]: Uuid, ...rest.properties }),
    request: ({ [idArg]: id, ...others }: Record<string, unknown>): ApiRequest =>
      ({ params: { id: id as string }, ...(Object.keys(rest.properties).length > 0 ? { [into]: others } : {}) }),
  };
}
const { from: _from, ...sendFields } = SendRequest.properties;
// schedule_sms is send_sms with send_at required (the same route, so the same limits: future, at most 35 days).
const { send_at: _sendAt, ...sendNowFields } = sendFields;
const ScheduleInput = Type.Object({ ...sendNowFields, ...Type.Required(Type.Object({ send_at: sendFields.send_at })).properties });
const { from: _batchFrom, ...batchFields } = BatchRequest.properties;

export const tools: ToolDefinition[] = [
  {
    name: 'send_sms', title: 'Send an SMS', op: 'send',
    description: 'Send one SMS to an Australian or New Zealand mobile. Costs 1 credit per part (160 characters in one '
      + 'part, else 154 per part). Refused, with nothing charged, for an invalid number, an opted-out recipient or too '
      + 'few credits. Needs the send scope.',
    input: Type.Object(sendFields), output: SendResult, annotations: SPENDS,
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'schedule_sms', title: 'Schedule an SMS', op: 'send',
    description: 'Send one SMS later: like send_sms, with send_at (ISO 8601 with offset, in the future, at most 35 days '
      + 'ahead). Credits are taken now and refunded by cancel_scheduled; get_message shows status scheduled until it '
      + 'goes. Needs the send scope.',
    input: ScheduleInput, output: SendResult,
    // Spends credits, but until send_at it can be undone (cancel_scheduled refunds it): not destructive.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'cancel_scheduled', title: 'Cancel a scheduled SMS', op: 'cancelMessage',
    description: 'Cancel a message scheduled with schedule_sms (or send_at) before it goes, refunding its credits. '
      + 'Refused with code not_scheduled once it is queued or sent (or already cancelled). Needs the send scope.',
    ...onId('message_id'), output: CancelResult,
    // The message will never be sent; a repeat changes nothing more (it is refused with not_scheduled).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'send_batch', title: 'Send a merged batch', op: 'sendBatch',
    description: 'Send one message to up to 1,000 recipients; {{key}} placeholders take each recipient\'s merge_data. '
      + 'Invalid numbers are listed and opted-out ones counted, neither charged; duplicates are sent once. All or '
      + 'nothing on credits. Needs the send scope.',
    input: Type.Object(batchFields), output: BatchResult, annotations: SPENDS,
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateBatchCredits(args as unknown as BatchInput, link),
  },
  {
    name: 'preview_message', title: 'Preview a message', op: 'previewSend',
    description: 'What send_sms would send and charge (parts, encoding, sender, whether the recipient opted out), '
      + 'without sending or charging. Needs the read scope.',
    input: Type.Object(sendFields), output: SendPreview, annotations: READ,
    request: (args) => ({ body: args }),
  },
  {
    name: 'search_messages', title: 'Search sent messages', op: 'searchMessages',
    description: 'The account\'s outbound messages, newest first, filtered and paged with a cursor. Needs the read scope.',
    input: MessageListQuery, output: MessageList, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'add_optout', title: 'Add an opt-out', op: 'addOptout',
    description: 'Put a number on the opt-out list (someone asked not to be messaged): later sends to it are refused. '
      + 'Needs the send scope.',
    input: NumberBody, output: AddResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    request: (body) => ({ body }),
  },
  {
    name: 'get_message', title: 'Get a message', op: 'getMessage',
    description: 'A sent message and its delivery receipt: status scheduled, queued, sent, delivered, failed or cancelled; '
      + 'with link_tracking, its short links and their clicks. Needs the read scope.',
    ...onId('message_id'), output: MessageDetail, annotations: READ,
  },
  {
    name: 'get_campaign', title: 'Get a campaign', op: 'getCampaign',
    description: 'A campaign (a batch, or sends grouped by campaign name) with delivery statistics and a page of its '
      + 'messages. Needs the read scope.',
    ...onId('campaign_id', Type.Partial(CampaignPage), 'query'), output: CampaignResponse, annotations: READ,
  },
  {
    name: 'list_inbox', title: 'List inbound messages', op: 'listInbox',
    description: 'Replies received, newest first, with paging and filters on sender and date. Opt-out replies have '
      + 'is_optout true. Needs the read scope.',
    input: InboxQuery, output: InboxList, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'reply_to_inbound', title: 'Reply to an inbound message', op: 'replyToInbound',
    description: 'Send an SMS back to the person who wrote an inbound message, from the number they wrote to when '
      + 'it is one of this account\'s. Charged like send_sms. Needs the send scope.',
    ...onId('inbound_id', ReplyRequest), output: SendResult, annotations: SPENDS,
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'list_optouts', title: 'List opt-outs', op: 'listOptouts',
    description: 'The numbers that opted out of this account\'s messages: sends to them are refused. Needs the read scope.',
    ...READ_NOTHING, output: OptoutList,
  },
  {
    name: 'get_balance', title: 'Get the credit balance', op: 'getBalance',
    description: 'Credits available to spend (1 credit per message part). Needs the read scope.',
    ...READ_NOTHING, output: Balance,
  },
  {
    name: 'get_report', title: 'Get a usage report', op: 'getReport',
    description: 'Messages, parts, delivery outcomes, credits, inbound messages and opt-outs over a range of days '
      + '(default the last 30), with optional filters. Needs the read scope.',
    input: ReportQuery, output: UsageReport, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'get_settings', title: 'Get the sending settings', op: 'getSettings',
    description: 'The account\'s quiet hours (messages due inside them wait until they end unless urgent), the time '
      + 'zone of its Australian recipients, and the link-tracking default. Needs the read scope.',
    ...READ_NOTHING, output: SettingsResponse,
  },
  {
    name: 'list_numbers', title: 'List dedicated numbers', op: 'listNumbers',
    description: 'The account\'s dedicated numbers (usable as sender). Needs the read scope.',
    ...READ_NOTHING, output: NumberList,
  },
  {
    name: 'list_sub_accounts', title: 'List sub-accounts', op: 'listSubAccounts',
    description: 'The sub-accounts of a parent account (account hierarchy must be enabled). Needs the read scope.',
    ...READ_NOTHING, output: AccountList,
  },
  {
    name: 'allocate_credits', title: 'Allocate credits to a sub-account', op: 'allocateCredits',
    description: 'Move credits from this (parent) account to one of its sub-accounts. Needs the billing scope.',
    ...onId('account_id', TransferRequest), output: TransferResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    credits: (args) => args.amount as number,
  },
];
