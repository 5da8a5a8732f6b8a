import type { FastifySchema, RouteOptions } from 'fastify';

/**
 * The API reference's groups, in the order /docs shows them: the interface document's sections (Sending, Tracking,
 * Inbound and opt-outs, the account, account management split by resource, Reporting), then Tasman's own
 * (sessions, the operator API, operations, status, MCP). Every operation names one (route-registry.test.ts).
 */
export const API_TAGS = [
  { name: 'Sending', description: 'Send one message or a merged batch of up to 1,000, preview what a send would send and cost, cancel what is scheduled. Each message part costs one credit, taken when the send is accepted (a 200 means the messages are committed to the queue) and returned when a scheduled send is cancelled. An Idempotency-Key header makes a retried send answer the first result instead of sending twice.' },
  { name: 'Tracking', description: 'Outbound messages and campaigns after the send: status, delivery receipt, clicks on tracked links. A delivery receipt can also be pushed to you (Webhooks, message.dlr).' },
  { name: 'Templates', description: 'Saved message texts: /send and /send-batch take template_id instead of message.' },
  { name: 'Contacts', description: 'The account\'s address book: contacts with their names, email and custom merge fields, lists, and CSV import. A number is one contact per account; an opted-out contact is marked and skipped on send, and deleting a contact keeps its opt-out. /send-batch with list_id sends to a list.' },
  { name: 'Inbound and opt-outs', description: 'Replies received on the account\'s numbers, and the account-wide opt-out list. An opt-out keyword (STOP, UNSUBSCRIBE…) or a confirmed opt-out link adds the sender to the list; later sends to it are refused before reaching the carrier.' },
  { name: 'Account', description: 'The calling account itself: its credit balance, its settings (quiet hours, time zone, link tracking) and the senders it may use.' },
  { name: 'Sub-accounts', description: 'Account hierarchy for platforms, agencies and resellers: a parent creates, changes and closes sub-accounts, moves credits between itself and them, and sets who may manage them. The operator enables hierarchy on the parent first; until then these operations answer 403.' },
  { name: 'Team', description: 'The people who sign in to the dashboard for an account: invitations, permissions (send, billing) and removal, for the caller\'s account or a sub-account it manages, and two-factor authentication.' },
  { name: 'API keys', description: 'Bearer keys for the API, for the caller\'s account or a sub-account. A key is shown in full once, at creation; lists show its prefix. Revoking a key makes it answer 401 at once.' },
  { name: 'SMPP', description: 'Credentials for the account\'s own SMPP 3.4 clients, which bind to Tasman\'s SMPP server (when the operator runs it) and send as the account: a system_id and a password shown once, where binds may come from, and their limits. Revoking one closes its binds at once.' },
  { name: 'Numbers', description: 'Dedicated numbers: the ones an account holds, the pool it can rent from (paid monthly in credits), and assigning or recalling numbers between a parent and its sub-accounts. A dedicated number can be a message\'s sender and receives replies.' },
  { name: 'Webhooks', description: 'Where Tasman POSTs delivery receipts (message.dlr) and inbound messages (message.inbound), each endpoint with its own signing secret, and the log of recent deliveries with a redeliver action. The events\' bodies are under Webhooks in this document.' },
  { name: 'Reporting', description: 'Usage summaries and daily series for the caller\'s account, a sub-account or the whole group: messages by status, credits consumed, inbound messages and opt-outs over a date range (Australia/Sydney days).' },
  { name: 'Audit log', description: 'Who changed what in the account, when and from where, and the attempts that were refused: keys, team, webhooks, settings, credits. Read-only; entries are never changed or deleted.' },
  { name: 'Dashboard sessions', description: 'Sign-in for the dashboard and the operator console: a session cookie instead of a bearer key, a CSRF token for writes, invitations, and the optional second factor. With a session, the dashboard calls the same operations an API key does.' },
  { name: 'Operator', description: 'The service operator\'s API (the operator token, TASMAN_ADMIN_TOKEN, or an operator console session): accounts across the service, credits, Sender ID registrations, the number pool, carriers and the pipeline. Not for tenants.' },
  { name: 'Operations', description: 'Liveness, readiness and Prometheus metrics, for load balancers, orchestrators and monitoring.' },
  { name: 'Status', description: 'The public service status the client libraries\' status() reads: no key, no credits.' },
  { name: 'MCP', description: 'The Model Context Protocol endpoint for AI agents: the API\'s operations as tools, with the key\'s scopes (docs/mcp.md).' },
];

interface TransformArgs { schema: FastifySchema; url: string; route: RouteOptions }
type Schema = FastifySchema & { body?: object; response?: Record<string, object> };

/** The first 2xx status a route documents with a body (the one its contract's response example belongs to). */
export function successStatus(response: Record<string, unknown> | undefined): string | undefined {
  return Object.keys(response ?? {}).find((status) => /^2\d\d$/.test(status));
}

type ObjectSchema = { properties?: Record<string, { default?: unknown }>; required?: string[] };

/**
 * A query parameter with a default may be left out (validation fills it in), so the document must not call it
 * required, though the route's schema lists it as required so its handler always sees a value.
 */
function withDefaultsOptional(s: Schema): Schema {
  const query = s.querystring as ObjectSchema | undefined;
  const required = query?.required?.filter((name) => query.properties?.[name]?.default === undefined);
  if (!query?.required || required?.length === query.required.length) return s;
  return { ...s, querystring: { ...query, required } };
}

/**
 * The swagger `transform`: marks query parameters with a default optional, and puts a route's contract examples on its operation (request: `sample.body`, response:
 * `response`), as the schema's `examples`, which @fastify/swagger turns into the media type's `example`. It copies
 * the schemas it changes: the route's own, which validate requests, stay as they are.
 */
export function withExamples({ schema, url, route }: TransformArgs): { schema: FastifySchema; url: string } {
  const contract = route.config?.contract;
  const given = schema as Schema | undefined;
  if (!given) return { schema, url };
  const s = withDefaultsOptional(given);
  if (!contract) return { schema: s, url };
  const out: Schema = { ...s };
  if (s.body && contract.sample?.body) out.body = { ...s.body, examples: [contract.sample.body] };
  const status = successStatus(s.response);
  if (s.response && status && contract.response !== undefined) {
    out.response = { ...s.response, [status]: { ...s.response[status], examples: [contract.response] } };
  }
  return { schema: out, url };
}
