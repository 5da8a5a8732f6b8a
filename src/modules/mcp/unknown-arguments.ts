import { AppError } from '../../platform/errors.ts';

// An argument a tool does not take is refused, never dropped: a misspelt filter (`recipient` for `to`) would
// otherwise widen a search, or a send, to what the agent did not ask for. The refusal names the valid arguments
// and the closest one, so the agent can correct the call at once.

/** Levenshtein distance, for names of a few dozen characters. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The valid name a misspelling most likely meant: within a third of its length in edits, or containing it. */
export function closestName(name: string, valid: string[]): string | null {
  const lower = name.toLowerCase();
  let best: { name: string; score: number } | null = null;
  for (const candidate of valid) {
    const contains = Math.min(lower.length, candidate.length) >= 3 && (lower.includes(candidate) || candidate.includes(lower));
    const score = contains ? 0.5 : distance(lower, candidate);
    if (score <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || score < best.score)) best = { name: candidate, score };
  }
  return best?.name ?? null;
}

/** The refusal for arguments the tool's input schema (its `properties`) does not name, or null when there are none. */
export function unknownArguments(input: { properties: Record<string, unknown> }, args: Record<string, unknown>): AppError | null {
  const valid = Object.keys(input.properties);
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(input.properties, name));
  if (unknown.length === 0) return null;
  const guesses = unknown.map((name) => closestName(name, valid));
  const meant = (i: number) => (guesses[i] ? ` (did you mean ${guesses[i]}?)` : '');
  const details = unknown.map((name, i) => ({ field: name, message: `is not an argument of this tool${meant(i)}` }));
  const takes = valid.length > 0 ? `it takes ${valid.join(', ')}` : 'it takes no arguments';
  return new AppError('validation_failed', `Unknown argument ${unknown.join(', ')}${meant(0)}: ${takes}`, { details, valid_arguments: valid });
}
