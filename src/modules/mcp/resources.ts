import type { TasmanApi } from './operations.ts';

// Readable context for an agent: what the account has to work with, and what people said lately. Both read
// through the same operations as the tools (so the read scope applies).

export interface ResourceDefinition {
  uri: string;
  name: string;
  title: string;
  description: string;
  read(api: TasmanApi): Promise<unknown>;
}

type Endpoint = { url: string; enabled: boolean; signing_enabled: boolean } | null;

// The webhook's state without its URL: a URL may carry Basic-auth credentials, which have no place in a prompt.
const endpointState = (e: Endpoint) => (e ? { configured: true, enabled: e.enabled, signing_enabled: e.signing_enabled } : { configured: false });

export const RECENT_INBOUND_LIMIT = 20;

export const resources: ResourceDefinition[] = [
  {
    uri: 'tasman://account/summary', name: 'account-summary', title: 'Account summary',
    description: 'Credits, dedicated numbers, Sender IDs and webhook state of this account.',
    async read(api) {
      const tool = 'resource:account-summary';
      const [balance, numbers, senders, webhooks] = await Promise.all([
        api('getBalance', {}, tool), api('listNumbers', {}, tool), api('listSenders', {}, tool), api('getWebhooks', {}, tool),
      ]) as [{ credits: number }, { numbers: unknown[] }, { sender_ids: string[] }, { delivery_receipt: Endpoint; inbound: Endpoint }];
      return {
        credits: balance.credits,
        numbers: numbers.numbers,
        sender_ids: senders.sender_ids,
        webhooks: { delivery_receipt: endpointState(webhooks.delivery_receipt), inbound: endpointState(webhooks.inbound) },
      };
    },
  },
  {
    uri: 'tasman://inbox/recent', name: 'recent-inbound', title: 'Recent inbound messages',
    description: `The ${RECENT_INBOUND_LIMIT} most recent replies received, newest first.`,
    read: (api) => api('listInbox', { query: { limit: RECENT_INBOUND_LIMIT } }, 'resource:recent-inbound'),
  },
];
