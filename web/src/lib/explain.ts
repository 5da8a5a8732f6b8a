import { ApiError } from './api.ts';

/** What the person can do about a failed call. */
export type WayOut = 'retry' | 'sign-in' | 'none';

export interface Explained { message: string; wayOut: WayOut }

/**
 * A failed call in words, with the way out: the API's own message when it says what to change (a 4xx about the
 * request), a plain sentence and "try again" when the fault is the server's or the network's, "sign in again" when
 * the session has ended. Never a bare "Internal error".
 */
export function explain(error: unknown): Explained {
  if (error instanceof ApiError) {
    if (error.status === 401 && error.code === 'unauthorized') {
      return { message: 'Your session has ended (signed out, or idle for too long). Sign in again to carry on.', wayOut: 'sign-in' };
    }
    if (error.code === 'csrf_failed') return { message: 'This page is out of date with your session. Reload it and try again.', wayOut: 'retry' };
    if (error.status === 429) return { message: `${error.message.replace(/\.$/, '')}. Wait a moment, then try again.`, wayOut: 'retry' };
    if (error.status === 503) return { message: 'Tasman cannot reach its database just now. Try again in a moment.', wayOut: 'retry' };
    if (error.status >= 500) {
      return { message: `Something went wrong on the server (${error.status}). Try again; if it keeps failing, tell your Tasman operator when it happened.`, wayOut: 'retry' };
    }
    return { message: error.message, wayOut: 'none' };
  }
  // fetch rejects with a TypeError when the request never got an answer.
  if (error instanceof TypeError) return { message: 'Tasman could not be reached: check your connection, then try again.', wayOut: 'retry' };
  return { message: error instanceof Error ? error.message : String(error), wayOut: 'retry' };
}
