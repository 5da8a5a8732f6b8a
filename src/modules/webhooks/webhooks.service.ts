import type { LookupFunction } from 'node:net';
import type { Actor } from '../../platform/actor.ts';
import { seal } from '../../platform/crypto/secret-box.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound, type ErrorCode } from '../../platform/errors.ts';
import { DEFAULT_EVENTS, OFFERED_EVENTS, type EndpointEvent, type WebhookEvent, type WebhookKind } from './outbox.ts';
import { generateSecret } from './signature.ts';
import { record } from '../../platform/audit/record.ts';
import { changedFields } from '../../platform/audit/redact.ts';
import { checkWebhookUrl, type UrlCheckCode } from './url-guard.ts';
import { maskCredentials, splitCredentials } from './url-credentials.ts';
import { storeSealedCredentials, urlsWithCredentials } from './url-credentials.repo.ts';
import {
  findDelivery, listAttempts, listDeliveries, listEndpoints, requeueDelivery, setSealedSecret, upsertEndpoint,
  type AttemptRow, type DeliveryFilter, type DeliveryRow, type DeliveryStatus, type EndpointRow,
} from './webhooks.repo.ts';

export interface WebhookServiceDeps {
  db: Db;
  /** AES-256-GCM key that seals signing secrets at rest (TASMAN_SECRET_KEY or DATA_DIR/secret.key). */
  secretKey: Buffer;
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** dns.lookup-shaped resolver for the save-time URL check; dns.lookup by default. */
  lookup?: LookupFunction;
  /** Wakes the delivery worker after a redelivery is committed. */
  onQueued: () => void;
}

export type EndpointView = { url: string; enabled: boolean; signing_enabled: boolean; disabled_reason: string | null; events: EndpointEvent[]; created_at: string; updated_at: string };
export type EndpointDetail = EndpointView & { secret?: string };

/** After a rotation the previous secret keeps signing webhook-signature this long (rotation without a gap). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type AttemptView = { attempted_at: string; status_code: number | null; error: string | null; duration_ms: number };
export type DeliveryView = {
  id: string;
  event: WebhookEvent;
  message_id: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  created_at: string;
  next_attempt_at: string | null;
  completed_at: string | null;
  attempts: AttemptView[];
};

const URL_ERROR: Record<UrlCheckCode, ErrorCode> = {
  invalid_url: 'invalid_webhook_url',
  https_required: 'webhook_url_https_required',
  private_address: 'webhook_url_not_public',
};

const view = (e: EndpointRow): EndpointView => ({
  url: maskCredentials(e.url, e.hasCredentials), enabled: e.enabled, signing_enabled: e.signingEnabled, disabled_reason: e.disabledReason,
  events: e.events ?? DEFAULT_EVENTS[e.kind], created_at: e.createdAt.toISOString(), updated_at: e.updatedAt.toISOString(),
});

/** The event list a PUT asks for, de-duplicated; 400 when it names an event this endpoint does not offer. */
function eventsFor(kind: WebhookKind, events: EndpointEvent[] | undefined): EndpointEvent[] | undefined {
  if (events === undefined) return undefined;
  const offered = OFFERED_EVENTS[kind];
  const wrong = events.filter((e) => !offered.includes(e));
  if (wrong.length > 0) {
    throw new AppError('validation_failed', `This endpoint offers ${offered.join(', ')}; not ${wrong.join(', ')}`, { details: [{ field: 'events', message: `one or more of ${offered.join(', ')}` }] });
  }
  return [...new Set(events)];
}
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDeliveryView(d: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    event: d.event,
    message_id: d.messageId,
    status: d.status,
    attempt_count: d.attempts,
    created_at: d.createdAt.toISOString(),
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    completed_at: iso(d.completedAt),
    attempts: attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(), status_code: a.statusCode, error: a.error, duration_ms: a.durationMs,
    })),
  };
}

/** Webhook configuration and the deliveries log, always on the caller's own account. */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { db } = deps;

  async function get(actor: Actor): Promise<Record<'delivery_receipt' | 'inbound', EndpointView | null>> {
    const endpoints = await listEndpoints(db, actor.accountId);
    const of = (kind: WebhookKind) => endpoints.find((e) => e.kind === kind);
    const dr = of('delivery_receipt');
    const inbound = of('inbound');
    return { delivery_receipt: dr ? view(dr) : null, inbound: inbound ? view(inbound) : null };
  }

  async function save(actor: Actor, kind: WebhookKind, input: { url: string; enabled?: boolean; events?: EndpointEvent[] }): Promise<EndpointDetail> {
    const url = input.url.trim();
    const events = eventsFor(kind, input.events);
    const checked = await checkWebhookUrl(url, { allowPrivate: deps.allowPrivate, lookup: deps.lookup });
    if (!checked.ok) throw new AppError(URL_ERROR[checked.code], `The webhook URL is not allowed: ${checked.reason}`);
    // Secure by default: an endpoint without a secret gets one now, returned once in this response.
    const secret = generateSecret();
    const parts = splitCredentials(url);
    const row = await db.transaction(async (tx) => {
      const old = (await listEndpoints(tx, actor.accountId)).find((e) => e.kind === kind);
      const saved = await upsertEndpoint(tx, actor.accountId, kind, {
        url: parts.url, enabled: input.enabled, events, sealed: seal(deps.secretKey, secret),
        credentials: parts.credentials === null ? null : seal(deps.secretKey, parts.credentials),
      });
      // The URL as the API shows it (credentials masked); a secret made now is recorded as made, never itself.
      const after = { ...view(saved), ...(saved.secretGenerated ? { signing_secret_created: true } : {}) };
      await record(tx, {
        accountId: actor.accountId, actor, action: old ? 'webhook.updated' : 'webhook.created', target: { type: 'webhook', id: kind },
        ...(old ? changedFields(view(old), after) : { after }),
      });
      return saved;
    });
    return {
      ...view(row),
      ...(row.secretGenerated ? { secret } : {}),
    };
  }

  /**
   * A new signing secret, returned once and stored only sealed. `X-…-Signature` uses it at once; for 24 hours
   * `webhook-signature` carries signatures with both the new and the previous secret, so receivers can switch
   * without a gap. Deliveries already queued are signed with whatever secrets are current when sent.
   */
  async function rotateSecret(actor: Actor, kind: WebhookKind): Promise<{ secret: string }> {
    const secret = generateSecret();
    const saved = await db.transaction(async (tx) => {
      const done = await setSealedSecret(tx, actor.accountId, kind, seal(deps.secretKey, secret), ROTATION_OVERLAP_MS);
      if (done) {
        await record(tx, {
          accountId: actor.accountId, actor, action: 'webhook.secret_rotated', target: { type: 'webhook', id: kind },
          after: { secret_rotated: true, previous_secret_valid_hours: ROTATION_OVERLAP_MS / 3_600_000 },
        });
      }
      return done;
    });
    if (!saved) {
      const path = kind === 'delivery_receipt' ? '/webhooks/delivery' : '/webhooks/inbound';
      throw new AppError('webhook_not_configured', `Set the webhook URL with PUT ${path} before rotating its secret`);
    }
    return { secret };
  }

  async function deliveries(actor: Actor, filter: DeliveryFilter) {
    const page = await listDeliveries(db, actor.accountId, filter);
    const attempts = await listAttempts(db, actor.accountId, page.deliveries.map((d) => d.id));
    const byDelivery = new Map<string, AttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
    return {
      deliveries: page.deliveries.map((d) => toDeliveryView(d, byDelivery.get(d.id) ?? [])),
      total: page.total,
      limit: filter.limit,
      offset: filter.offset,
    };
  }

  async function redeliver(actor: Actor, id: string): Promise<{ ok: true; delivery: DeliveryView }> {
    const outcome = await requeueDelivery(db, actor.accountId, id);
    if (outcome === 'missing') throw notFound('Delivery');
    if (outcome === 'in_progress') {
      throw new AppError('delivery_in_progress', 'This delivery is being attempted now; try again when the attempt has finished');
    }
    // Read before waking the worker: the answer describes the requeued delivery, not an attempt that a fast
    // worker may already have finished.
    const row = await findDelivery(db, actor.accountId, id);
    const attempts = row ? await listAttempts(db, actor.accountId, [id]) : [];
    deps.onQueued();
    if (!row) throw notFound('Delivery');
    return { ok: true, delivery: toDeliveryView(row, attempts) };
  }

  /**
   * Start-up step: credentials in URLs saved before they were sealed (migration 0016) are sealed now, instead of
   * waiting in plain text for the account's next PUT. Idempotent and cheap when there is nothing to do (every
   * process runs it). Returns how many endpoints it sealed.
   */
  async function sealStoredUrlCredentials(): Promise<number> {
    let sealed = 0;
    for (const row of await urlsWithCredentials(db)) {
      let parts: ReturnType<typeof splitCredentials>;
      try {
        parts = splitCredentials(row.url);
      } catch {
        continue; // not a URL Tasman can parse, so not one it could send to either
      }
      if (parts.credentials === null) continue;
      if (await storeSealedCredentials(db, row, parts.url, seal(deps.secretKey, parts.credentials))) sealed++;
    }
    return sealed;
  }

  return { get, save, rotateSecret, deliveries, redeliver, sealStoredUrlCredentials };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
