import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { uuidv7 } from '../ids.ts';
import { auditActor, type AuditEntry } from './entry.ts';
import { redact } from './redact.ts';

// The audit log's one writer (docs/audit-log.md, decision 0057). In platform/ because every module that changes
// something records it, while the audit module (its routes and lists) depends on modules itself.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const json = (v: Record<string, unknown> | null) => (v === null ? sql`null` : sql`${JSON.stringify(v)}::jsonb`);

/**
 * Records one entry in `tx`, the transaction that makes the change: the entry commits with the change or not at
 * all, whichever path made it (REST, MCP, the CLI, the operator, a background job). Secrets are redacted here.
 * Its time is the transaction's (now()), like the change's.
 */
export async function record(tx: Executor, entry: AuditEntry): Promise<void> {
  const actor = auditActor(entry.actor);
  // A key is recorded with its shown prefix, read here rather than carried on every request's actor.
  // Only a uuid is looked up, as one: the primary key's index answers it.
  const label = actor.type === 'key' && actor.label === null && actor.id && UUID.test(actor.id)
    ? sql`(select prefix from api_keys where id = ${actor.id}::uuid)`
    : sql`${actor.label}`;
  await tx.execute(sql`
    insert into audit_log (id, account_id, actor_type, actor_id, actor_label, source_address, action, target_type, target_id,
                           outcome, reason, before, after)
    values (${uuidv7()}, ${entry.accountId}, ${actor.type}, ${actor.id}, ${label}, ${actor.address}, ${entry.action},
            ${entry.target?.type ?? null}, ${entry.target?.id ?? null}, ${entry.outcome ?? 'ok'}, ${entry.reason ?? null},
            ${json(redact(entry.before))}, ${json(redact(entry.after))})`);
}
