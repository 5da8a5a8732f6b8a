import { AppError } from '../../platform/errors.ts';

// What an API key may do. `read` sees, `send` spends credits on messages (and honours opt-outs),
// `manage` changes the account: sub-accounts, credits, keys, users, numbers, webhooks. A key holds one or more.
export const SCOPES = ['read', 'send', 'manage'] as const;
export type Scope = (typeof SCOPES)[number];

/** Every key made before scopes existed, and every key created without `scopes`, holds all three. */
export const ALL_SCOPES: readonly Scope[] = SCOPES;

/** The scopes a key is stored with: known ones only, each once, in canonical order. */
export function normaliseScopes(given: readonly string[] | undefined): Scope[] {
  if (given === undefined) return [...ALL_SCOPES];
  return SCOPES.filter((s) => given.includes(s));
}

export function insufficientScope(needed: Scope): AppError {
  return new AppError('insufficient_scope', `This API key lacks the "${needed}" scope`, { required_scope: needed });
}

export function requireScope(held: readonly Scope[], needed: Scope): void {
  if (!held.includes(needed)) throw insufficientScope(needed);
}

/** A key may hand out only powers it holds itself: a read-and-send key cannot mint a manage key. */
export function requireScopesWithin(held: readonly Scope[], wanted: readonly Scope[]): void {
  for (const scope of wanted) requireScope(held, scope);
}
