// What a signed-in user's permissions gate: `can_send` gates sending and scheduling, `can_billing`
// gates credit moves and number purchase; everyone may read. API keys are not users and may do everything their
// account may. Keyed by Fastify's route pattern, so a new route is open to every member unless listed here.

export type Permission = 'send' | 'billing';

const RULES: Record<string, Permission> = {
  'POST /send': 'send',
  'POST /send-batch': 'send',
  'DELETE /message/:id': 'send',
  'DELETE /campaign/:id/schedule': 'send',
  'POST /account/:id/credits/allocate': 'billing',
  'POST /account/:id/credits/recall': 'billing',
  'POST /numbers/purchase': 'billing',
  'POST /account/:id/numbers/assign': 'billing',
  'POST /account/:id/numbers/recall': 'billing',
};

/** The permission a route needs from a signed-in user, or null when membership is enough. */
export function permissionFor(method: string, routePattern: string | undefined): Permission | null {
  if (!routePattern) return null;
  return RULES[`${method.toUpperCase()} ${routePattern}`] ?? null;
}
