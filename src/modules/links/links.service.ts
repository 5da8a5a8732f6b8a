import type { Db } from '../../platform/db/client.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { LinkView, LinksOf } from '../../common/link-view.ts';
import { countClick, linksOfMessage, linksOfMessages, linkTarget, type ClickRow, type LinkRow } from './links.repo.ts';
import { isPreviewAgent } from './preview-agents.ts';
import { isLinkCode } from './shorten.ts';

export type { LinkView } from '../../common/link-view.ts';

export interface ClickEvent {
  event: 'message.click';
  message_id: string;
  recipient: string;
  url: string;
  short_url: string;
  clicked_at: string;
  clicks: number;
  first_clicked_at: string;
  metadata: Record<string, string> | null;
}

export interface LinkServiceDeps {
  db: Db;
  /** OPTOUT_LINK_BASE: short links live beside the opt-out links */
  base: string;
  /** Wakes the webhook worker after a click event is committed. */
  onEvents: () => void;
  now?: () => Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The Location header for a stored URL: its WHATWG serialisation (IDN host in punycode, other non-ASCII
 * percent-encoded), because a header cannot carry an emoji or CJK as written. The URL parsed when it was stored.
 */
const location = (url: string | null): string | null => (url === null ? null : new URL(url).href);

/**
 * Short links with click tracking. The send path shortens (shorten.ts) and writes the links in
 * its own statement; this service answers the public redirect and shows the links on a message.
 */
export function createLinkService(deps: LinkServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const shortUrl = (code: string) => `${deps.base}/${code}`;

  const toView = (l: LinkRow): LinkView => ({
    url: l.url, short_url: shortUrl(l.code), clicks: l.clicks, first_clicked_at: iso(l.firstClickedAt), last_clicked_at: iso(l.lastClickedAt),
  });

  const clickEvent = (c: ClickRow, at: Date): ClickEvent => ({
    event: 'message.click', message_id: c.messageId, recipient: c.recipient, url: c.url, short_url: shortUrl(c.code),
    clicked_at: at.toISOString(), clicks: c.clicks, first_clicked_at: c.firstClickedAt!.toISOString(), metadata: c.metadata ?? null,
  });

  /**
   * Where a short link leads (as a Location header value), or null (404) for an unknown code or one past retention. A person's GET counts a
   * click and records `message.click` in the same transaction; a HEAD or a link previewer (preview-agents.ts) is
   * redirected without either.
   */
  async function follow(code: string, request: { method: string; userAgent: string | undefined }): Promise<string | null> {
    if (!isLinkCode(code)) return null;
    if (request.method !== 'GET' || isPreviewAgent(request.userAgent)) return location(await linkTarget(deps.db, code));
    const at = now();
    const { url, recorded } = await deps.db.transaction(async (tx) => {
      const click = await countClick(tx, code, at);
      if (!click) return { url: null, recorded: false };
      const id = await recordEvent(tx, { accountId: click.accountId, event: 'message.click', messageId: click.messageId, body: clickEvent(click, at) });
      return { url: click.url, recorded: id !== null };
    });
    if (recorded) deps.onEvents();
    return location(url);
  }

  /** The links of one of the account's messages, in text order ([] when it was sent without tracking). */
  async function ofMessage(accountId: string, messageId: string): Promise<LinkView[]> {
    return (await linksOfMessage(deps.db, accountId, messageId)).map(toView);
  }

  /**
   * The links of messages that just got their outcome, for the message.dlr body. Only a body that names the link
   * base can hold a short link, so a receipt batch without any costs no query.
   */
  const viewsOf: LinksOf = async (db, messages) => {
    const prefix = `${deps.base}/`;
    const linked = messages.filter((m) => m.body?.includes(prefix));
    const views = new Map<string, LinkView[]>();
    if (linked.length === 0) return views;
    for (const l of await linksOfMessages(db, linked)) {
      const list = views.get(l.messageId) ?? [];
      list.push(toView(l));
      views.set(l.messageId, list);
    }
    return views;
  };

  return { isLinkCode, follow, ofMessage, viewsOf };
}

export type LinkService = ReturnType<typeof createLinkService>;

// The send path stores a message's short links in the transaction that commits it.
export { insertLinks } from './links.repo.ts';
