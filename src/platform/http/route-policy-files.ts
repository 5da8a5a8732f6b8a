import { fileURLToPath } from 'node:url';

// Where the route policy and the guide made from it live in a checkout (tests and the docs script read them; the
// server never does).
export const POLICY_PATH = fileURLToPath(new URL('./route-policy.txt', import.meta.url));
export const GUIDE_PATH = fileURLToPath(new URL('../../../docs/permissions.md', import.meta.url));
