import { describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { explain } from './explain.ts';
import { figureLabel } from './words.ts';

describe('explain', () => {
  it('a server fault is never a bare "Internal error": a sentence and a retry', () => {
    const e = explain(new ApiError(500, 'internal_error', 'Internal server error'));
    expect(e.wayOut).toBe('retry');
    expect(e.message).toMatch(/^Something went wrong on the server \(500\)\. Try again/);
    expect(explain(new ApiError(503, 'service_unavailable', 'Database unavailable')).wayOut).toBe('retry');
    expect(explain(new ApiError(502, 'error', 'Request failed (502)')).message).toContain('(502)');
  });

  it('an ended session says so and offers to sign in again', () => {
    expect(explain(new ApiError(401, 'unauthorized', 'Your session has ended: sign in again'))).toEqual({
      message: expect.stringMatching(/^Your session has ended/), wayOut: 'sign-in',
    });
  });

  it('a wrong password is not an ended session: the API\'s message, no way out but to fix it', () => {
    expect(explain(new ApiError(401, 'invalid_credentials', 'Wrong email or password'))).toEqual({ message: 'Wrong email or password', wayOut: 'none' });
  });

  it('a refusal about the request keeps the API\'s words; a limit says to wait; no answer at all says to check the connection', () => {
    expect(explain(new ApiError(402, 'insufficient_credits', 'Not enough credits: 3 needed, 1 available'))).toEqual({ message: 'Not enough credits: 3 needed, 1 available', wayOut: 'none' });
    expect(explain(new ApiError(429, 'rate_limited', 'Too many requests for this API key'))).toEqual({ message: 'Too many requests for this API key. Wait a moment, then try again.', wayOut: 'retry' });
    expect(explain(new TypeError('Failed to fetch'))).toEqual({ message: expect.stringMatching(/could not be reached/), wayOut: 'retry' });
    expect(explain(new ApiError(403, 'csrf_failed', 'Missing or wrong X-CSRF-Token header')).wayOut).toBe('retry');
  });
});

describe('figureLabel', () => {
  it('names report figures in words, and an unknown one without underscores', () => {
    expect(figureLabel('credits_consumed')).toBe('Credits used');
    expect(figureLabel('total')).toBe('Messages');
    expect(figureLabel('new_thing_count')).toBe('New thing count');
  });
});
