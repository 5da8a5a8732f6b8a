import type { Actor } from '../../platform/actor.ts';
import type { MessageService } from '../messages/messages.service.ts';
import type { BatchInput, SendInput } from '../messages/messages.schemas.ts';
import type { ReplyService } from '../messages/reply.service.ts';
import type { InboxQuery, InboxService } from '../inbox/inbox.service.ts';
import type { ConversationService } from '../inbox/conversations.service.ts';
import type { OptoutService } from '../optouts/optouts.service.ts';
import type { CampaignService } from '../campaigns/campaigns.service.ts';
import type { CreditService } from '../credits/credits.service.ts';
import type { ReportService } from '../reports/reports.service.ts';
import type { NumberService } from '../numbers/numbers.service.ts';
import type { SenderService } from '../senders/senders.service.ts';
import type { WebhookService } from '../webhooks/webhooks.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { AccountService } from '../accounts/accounts.service.ts';
import type { ContactService } from '../contacts/contacts.service.ts';
import type { TemplateService } from '../templates/templates.service.ts';
import type { ContactQuery } from '../contacts/contacts.schemas.ts';
import type { Within } from '../../platform/http/idempotency.ts';

// The REST operations the MCP tools and resources stand on. Each names its route (method and path, as the REST
// API serves it) and the one service call that route makes, so a tool is the route without HTTP: over stdio the
// tools call the route itself, in-process they call the same service with the same key scope (read from the
// route's own declaration, see service-api.ts).

export interface ApiRequest {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The caller's Idempotency-Key, on an operation that spends (`keyedAs`). */
  idempotencyKey?: string;
}

/** The services the operations call, and nothing else. */
export type OperationServices = {
  messages: MessageService; replies: ReplyService; inbox: InboxService; conversations: ConversationService; optouts: OptoutService;
  campaigns: CampaignService; credits: CreditService; reports: ReportService; numbers: NumberService; senders: SenderService;
  webhooks: WebhookService; settings: SettingsService; accounts: AccountService; contacts: ContactService; templates: TemplateService;
};

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's form: `:id` for a path parameter. */
  path: string;
  /**
   * On an operation that spends: what its route scopes an Idempotency-Key to (the name the REST route gives
   * `idempotency.run`), so a key replays across REST and MCP alike.
   */
  keyedAs?(request: ApiRequest): string;
  /** `within` stores the idempotent answer in the operation's own transaction. */
  call(services: OperationServices, actor: Actor, request: ApiRequest, within?: Within<unknown>): Promise<unknown>;
}

const id = (r: ApiRequest) => r.params!.id!;
// Query and body values arrive validated against the route's own schema (see mcp-server.ts); these casts only
// name the shapes those schemas guarantee.
const query = <T>(r: ApiRequest) => (r.query ?? {}) as T;
const body = <T>(r: ApiRequest) => r.body as T;

export const operations = {
  send: { method: 'POST', path: '/send', keyedAs: () => 'send', call: (s, a, r, w) => s.messages.send(a, body<SendInput>(r), w) },
  sendBatch: {
    method: 'POST', path: '/send-batch', keyedAs: () => 'send-batch', call: (s, a, r, w) => s.messages.sendBatch(a, body<BatchInput>(r), w),
  },
  previewBatch: { method: 'POST', path: '/send-batch/preview', call: (s, a, r) => s.messages.previewBatch(a, body<BatchInput>(r)) },
  listContacts: { method: 'GET', path: '/contacts', call: (s, a, r) => s.contacts.list(a, query<ContactQuery>(r)) },
  listTemplates: { method: 'GET', path: '/templates', call: (s, a) => s.templates.list(a) },
  previewSend: { method: 'POST', path: '/send/preview', call: (s, a, r) => s.messages.previewSend(a, body<SendInput>(r)) },
  searchMessages: {
    method: 'GET', path: '/messages', call: (s, a, r) => s.messages.list(a, query<Parameters<MessageService['list']>[1]>(r)),
  },
  addOptout: { method: 'POST', path: '/optouts', call: (s, a, r) => s.optouts.add(a, body<{ number: string }>(r).number) },
  getMessage: { method: 'GET', path: '/message/:id', call: (s, a, r) => s.messages.get(a, id(r)) },
  cancelMessage: { method: 'DELETE', path: '/message/:id', call: (s, a, r) => s.messages.cancel(a, id(r)) },
  listCampaigns: {
    method: 'GET', path: '/campaigns', call: (s, a, r) => s.campaigns.list(a, query<{ limit: number; offset: number }>(r)),
  },
  getCampaign: {
    method: 'GET', path: '/campaign/:id', call: (s, a, r) => s.campaigns.get(a, id(r), query<{ limit: number; offset: number }>(r)),
  },
  listInbox: { method: 'GET', path: '/inbox', call: (s, a, r) => s.inbox.list(a, query<InboxQuery>(r)) },
  replyToInbound: {
    method: 'POST', path: '/inbox/:id/reply', keyedAs: (r) => `inbox/${id(r)}/reply`,
    call: (s, a, r, w) => s.replies.reply(a, id(r), body<{ message: string; campaign?: string }>(r), w),
  },
  markInboundRead: { method: 'POST', path: '/inbox/:id/read', call: (s, a, r) => s.conversations.read(a, id(r)) },
  getConversation: {
    method: 'GET', path: '/conversations/:number', call: (s, a, r) => s.conversations.get(a, r.params!.number!, query<{ limit?: number }>(r)),
  },
  listOptouts: { method: 'GET', path: '/optouts', call: (s, a) => s.optouts.list(a) },
  getBalance: { method: 'GET', path: '/balance', call: (s, a) => s.credits.balance(a) },
  getReport: { method: 'GET', path: '/report', call: (s, a, r) => s.reports.own(a, query<Parameters<ReportService['own']>[1]>(r)) },
  listNumbers: { method: 'GET', path: '/numbers', call: (s, a) => s.numbers.mine(a) },
  listSenders: { method: 'GET', path: '/senders', call: (s, a) => s.senders.list(a) },
  getWebhooks: { method: 'GET', path: '/webhooks', call: (s, a) => s.webhooks.get(a) },
  getSettings: { method: 'GET', path: '/settings', call: async (s, a) => s.settings.get(a) },
  listSubAccounts: { method: 'GET', path: '/accounts', call: (s, a) => s.accounts.list(a) },
  allocateCredits: {
    method: 'POST', path: '/account/:id/credits/allocate', keyedAs: (r) => `account/${id(r)}/credits/allocate`,
    call: (s, a, r, w) => s.accounts.transfer(a, id(r), body<{ amount: number }>(r).amount, 'allocate', w),
  },
} satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;

/** Runs one operation for the caller; `tool` names the MCP tool for the request log. Throws the API's error. */
export type TasmanApi = (op: OperationName, request: ApiRequest, tool: string) => Promise<unknown>;
