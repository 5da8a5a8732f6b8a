import { Type } from 'typebox';
import type { Static, TObject } from '@fastify/type-provider-typebox';
import { Uuid } from '../../platform/http/schemas.ts';
import { Balance, TransferRequest, TransferResult, AccountList } from '../accounts/accounts.schemas.ts';
import { CampaignList, CampaignListQuery, CampaignPage, CampaignResponse } from '../campaigns/campaigns.routes.ts';
import { Conversation, ConversationParams, ConversationQuery, InboxList, InboxQuery, ReadResult } from '../inbox/inbox.schemas.ts';
import {
  BatchRecipients, BatchRequest, BatchResult, Message, CancelResult, MessageDetail, MessageList, MessageListQuery, ReplyRequest, SendPreview, SendRequest, SendResult,
} from '../messages/messages.schemas.ts';
import type { BatchInput } from '../messages/messages.schemas.ts';
import { NumberList } from '../numbers/numbers.schemas.ts';
import { AddResult, NumberBody, OptoutList } from '../optouts/optouts.routes.ts';
import { ReportQuery, UsageReport } from '../reports/reports.schemas.ts';
import { SettingsResponse } from '../settings/settings.schemas.ts';
import { estimateBatchCredits, estimateSendCredits } from './credit-estimate.ts';
import type { ApiRequest } from './operations.ts';
import { ASK, keyed, READ, READ_NOTHING, SPENDS, type ToolDefinition } from './tool-definition.schemas.ts';
import { contactTools } from './contact-tools.schemas.ts';

// Every MCP tool: the REST operation it calls, its input (built from that route's own request schemas, so the
// same limits apply) and its output (the route's 200 schema, which shapes the result; the listing leaves it out to
// stay small, decision 0072). `credits` is the most the call could spend or move, checked against
// MCP_MAX_CREDITS_PER_CALL before anything happens. Descriptions are short and say what a call costs and when to
// ask the user: the whole list is in every agent's context (a test holds it under 5,000 tokens).

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
/** `onId` for a tool that spends: the route's body plus `idempotency_key`. */
function keyedOnId(idArg: string, rest: TObject) {
  const tool = onId(idArg, rest);
  return { ...tool, input: keyed(tool.input) };
}

// The tools send a text (message required, no template_id): their credit cap is worked out from it.
const { from: _from, template_id: _templateId, ...sendOptional } = SendRequest.properties;
const sendFields = { ...sendOptional, message: Message };
// schedule_sms is send_sms with send_at required (the same route, so the same limits: future, at most 35 days).
const { send_at: _sendAt, ...sendNowFields } = sendFields;
const ScheduleInput = Type.Object({ ...sendNowFields, ...Type.Required(Type.Object({ send_at: sendFields.send_at })).properties });
// send_batch names its recipients (send_to_list sends to a list): its credit cap is worked out from them.
const { from: _batchFrom, list_id: _listId, template_id: _batchTemplate, ...batchOptional } = BatchRequest.properties;
const batchFields = { ...batchOptional, recipients: BatchRecipients, message: Message };

export const tools: ToolDefinition[] = [
  {
    name: 'send_sms', title: 'Send an SMS', op: 'send',
    description: `Send one SMS to an AU or NZ mobile. Costs 1 credit per part (160 characters, else 154 a part). ${ASK} `
      + 'Refused, uncharged, for a bad number, an opted-out recipient or too few credits. Scope send.',
    input: keyed(Type.Object(sendFields)), output: SendResult, annotations: SPENDS,
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'schedule_sms', title: 'Schedule an SMS', op: 'send',
    description: `send_sms at send_at (ISO 8601 with offset, at most 35 days ahead). Credits are taken now; cancel_scheduled refunds. ${ASK} Scope send.`,
    input: keyed(ScheduleInput), output: SendResult,
    // Spends credits, but until send_at it can be undone (cancel_scheduled refunds it): not destructive.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'cancel_scheduled', title: 'Cancel a scheduled SMS', op: 'cancelMessage',
    description: 'Cancel a scheduled message before it goes and refund it; not_scheduled once it is queued or sent. Scope send.',
    ...onId('message_id'), output: CancelResult,
    // The message will never be sent; a repeat changes nothing more (it is refused with not_scheduled).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'send_batch', title: 'Send a merged batch', op: 'sendBatch',
    description: 'One message to up to 1,000 recipients, {{key}} filled from each merge_data. Costs 1 credit per part per '
      + `recipient; invalid, opted-out and repeated numbers are skipped uncharged; all or nothing on credits. ${ASK} Scope send.`,
    input: keyed(Type.Object(batchFields)), output: BatchResult, annotations: SPENDS,
    request: (args) => ({ body: args }),
    credits: (args, link) => estimateBatchCredits(args as unknown as BatchInput, link),
  },
  {
    name: 'preview_message', title: 'Preview a message', op: 'previewSend',
    description: 'What send_sms would send and charge (parts, encoding, opted out), free. Use it to show the user the cost.',
    input: Type.Object(sendFields), output: SendPreview, annotations: READ,
    request: (args) => ({ body: args }),
  },
  {
    name: 'search_messages', title: 'Search sent messages', op: 'searchMessages',
    description: 'Outbound messages, newest first, filtered, paged by cursor.',
    input: MessageListQuery, output: MessageList, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'add_optout', title: 'Add an opt-out', op: 'addOptout',
    description: 'Stop messaging a number (someone asked): later sends to it are refused. Free. Scope send.',
    input: NumberBody, output: AddResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    request: (body) => ({ body }),
  },
  {
    name: 'get_message', title: 'Get a message', op: 'getMessage',
    description: 'A message, its status (scheduled, queued, sent, delivered, failed, cancelled), receipt and link clicks.',
    ...onId('message_id'), output: MessageDetail, annotations: READ,
  },
  {
    name: 'list_campaigns', title: 'List campaigns', op: 'listCampaigns',
    description: 'Campaigns (batches and named sends), newest first, with message counts by status.',
    input: CampaignListQuery, output: CampaignList, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'get_campaign', title: 'Get a campaign', op: 'getCampaign',
    description: 'One campaign: delivery counts and a page of its messages.',
    ...onId('campaign_id', Type.Partial(CampaignPage), 'query'), output: CampaignResponse, annotations: READ,
  },
  {
    name: 'list_inbox', title: 'List inbound messages', op: 'listInbox',
    description: 'Replies received, newest first; unread=true for those not yet marked read. is_optout marks STOP replies.',
    input: InboxQuery, output: InboxList, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'reply_to_inbound', title: 'Reply to an inbound message', op: 'replyToInbound',
    description: `SMS back to an inbound message's sender, from the number they wrote to. Costs as send_sms. ${ASK} Scope send.`,
    ...keyedOnId('inbound_id', ReplyRequest), output: SendResult, annotations: SPENDS,
    credits: (args, link) => estimateSendCredits(args.message as string, link),
  },
  {
    name: 'mark_inbound_read', title: 'Mark an inbound message read', op: 'markInboundRead',
    description: 'Mark a reply read once it is handled (listing never does). Free. Scope send.',
    ...onId('inbound_id'), output: ReadResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'get_conversation', title: 'Get a conversation', op: 'getConversation',
    description: 'Messages to and from one number (E.164), oldest first, with its name and unread count.',
    input: Type.Object({ ...ConversationParams.properties, ...ConversationQuery.properties }), output: Conversation, annotations: READ,
    request: ({ number, ...query }) => ({ params: { number: number as string }, query }),
  },
  {
    name: 'list_optouts', title: 'List opt-outs', op: 'listOptouts',
    description: 'Numbers that opted out; sends to them are refused.',
    ...READ_NOTHING, output: OptoutList,
  },
  {
    name: 'get_balance', title: 'Get the credit balance', op: 'getBalance',
    description: 'Credits left (1 per message part).',
    ...READ_NOTHING, output: Balance,
  },
  {
    name: 'get_report', title: 'Get a usage report', op: 'getReport',
    description: 'Messages, parts, delivery outcomes, credits, replies and opt-outs over days (default the last 30).',
    input: ReportQuery, output: UsageReport, annotations: READ,
    request: (query) => ({ query }),
  },
  {
    name: 'get_settings', title: 'Get the sending settings', op: 'getSettings',
    description: 'Quiet hours (non-urgent sends wait until they end), time zone and link-tracking default.',
    ...READ_NOTHING, output: SettingsResponse,
  },
  {
    name: 'list_numbers', title: 'List dedicated numbers', op: 'listNumbers',
    description: 'The account\'s dedicated numbers, usable as sender.',
    ...READ_NOTHING, output: NumberList,
  },
  {
    name: 'list_sub_accounts', title: 'List sub-accounts', op: 'listSubAccounts',
    description: 'This parent account\'s sub-accounts (not itself), with their credits. Needs account hierarchy.',
    ...READ_NOTHING, output: AccountList,
    // The route lists the caller first (as the client libraries document); an agent wants the ones it can fund.
    response: (result) => ({ accounts: (result as Static<typeof AccountList>).accounts.slice(1) }),
  },
  {
    name: 'allocate_credits', title: 'Allocate credits to a sub-account', op: 'allocateCredits',
    description: 'Move `amount` credits from this account to a sub-account (from list_sub_accounts). Ask the user to confirm. Scope billing.',
    ...keyedOnId('account_id', TransferRequest), output: TransferResult,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    credits: (args) => args.amount as number,
  },
  ...contactTools,
];
