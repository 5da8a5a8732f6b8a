import type { Db } from '../../platform/db/client.ts';
import type { LinksOf } from '../../common/link-view.ts';
import { lockOverdue } from './receipts.repo.ts';
import { endWithoutReceipt } from './end-without-receipt.ts';
import { wakeIfRecorded, type RecordedEvents } from './receipt-pipeline.ts';

// After the validity period the SMSC's own EXPIRED receipt may still be on its way: give it this long.
const EXPIRY_GRACE_MS = 60 * 60_000;
const EXPIRY_BATCH = 500;

export interface ExpiryDeps {
  db: Db;
  linksOf: LinksOf;
  events: RecordedEvents;
  /** The validity period set on every submit (MESSAGE_VALIDITY_HOURS, default 48). */
  validityHours?: number;
  /** Carriers whose own `validity_hours` (TASMAN_CARRIERS) their submits carry instead: carrier id → hours. */
  carrierValidityHours?: Record<string, number>;
}

/**
 * Every message ends in a final state: one sent more than the validity period (plus an hour's grace) before `at`
 * with no final receipt ends `expired` with error_code `no_receipt` and its message.dlr (endWithoutReceipt, the
 * same shape as a submit refusal). Returns how many.
 */
export async function expireOverdue(deps: ExpiryDeps, at: Date): Promise<number> {
  // Each carrier's messages by the validity period their submits carried; the rest by MESSAGE_VALIDITY_HOURS.
  const byHours = new Map<number, string[]>();
  for (const [carrier, hours] of Object.entries(deps.carrierValidityHours ?? {})) byHours.set(hours, [...(byHours.get(hours) ?? []), carrier]);
  const rounds: Array<{ hours: number; carriers: { in: string[] } | { notIn: string[] } }> = [
    ...[...byHours].map(([hours, carriers]) => ({ hours, carriers: { in: carriers } })),
    { hours: deps.validityHours ?? 48, carriers: { notIn: Object.keys(deps.carrierValidityHours ?? {}) } },
  ];
  let total = 0;
  for (const round of rounds) total += await expireRound(deps, at, round.hours, round.carriers);
  return total;
}

/** Ends the messages sent through `carriers` more than `hours` (plus the grace) before `at`; returns how many. */
async function expireRound(deps: ExpiryDeps, at: Date, hours: number, carriers: { in: string[] } | { notIn: string[] }): Promise<number> {
  const cutoff = new Date(at.getTime() - hours * 3_600_000 - EXPIRY_GRACE_MS);
  let total = 0;
  for (;;) {
    const ended = await deps.db.transaction(async (tx) => {
      const due = await lockOverdue(tx, cutoff, EXPIRY_BATCH, carriers);
      for (const messageId of due) {
        const done = await endWithoutReceipt(tx, { messageId, status: 'expired', errorCode: 'no_receipt' }, deps.linksOf);
        if (done?.eventRecorded) deps.events.count += 1;
      }
      return due.length;
    });
    wakeIfRecorded(deps.events);
    total += ended;
    if (ended < EXPIRY_BATCH) return total;
  }
}
