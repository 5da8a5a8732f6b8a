import type { Executor } from '../platform/db/client.ts';

/**
 * A tracked short link of a message, as GET /message/{id} and the message.dlr webhook show it. Here, not in the
 * links module, because the messages, receipts and dispatch modules build those bodies and the links module
 * fills them in: neither side imports the other.
 */
export interface LinkView {
  url: string | null;
  short_url: string;
  clicks: number;
  first_clicked_at: string | null;
  last_clicked_at: string | null;
}

/** What a body builder needs of a message to look its links up. */
export interface LinkedMessage {
  id: string;
  accountId: string;
  body: string | null;
}

/**
 * The links of several messages as they stand now, by message id, read in the caller's transaction (the
 * message.dlr body is fixed when its event is recorded). A message absent from the map has none.
 */
export type LinksOf = (db: Executor, messages: readonly LinkedMessage[]) => Promise<ReadonlyMap<string, LinkView[]>>;

/** For wiring that tracks no links (some tests): every message has none. */
export const noLinks: LinksOf = async () => new Map();
