/**
 * A function built on its first call instead of now: the HTTP app's validators and serializers, one per route
 * and status, are compiled when a request first needs them. Compiled up front, the ones an idle process never
 * runs held about 15 MB of every API process at rest (docs/performance.md). A validator's `errors` (ajv) are
 * copied onto the returned function after each call, where Fastify reads them.
 */
export function onFirstUse<F extends (...args: never[]) => unknown>(build: () => F): F {
  let built: F | null = null;
  const lazy = (...args: Parameters<F>): ReturnType<F> => {
    built ??= build();
    const result = built(...args) as ReturnType<F>;
    const { errors } = built as unknown as { errors?: unknown };
    if (errors !== undefined) (lazy as unknown as { errors?: unknown }).errors = errors;
    return result;
  };
  return lazy as unknown as F;
}
