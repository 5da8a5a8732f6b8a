/**
 * `fn` called on first use and its result kept: for modules loaded lazily (`once(() => import('…'))`), so that a
 * process that never needs one never pays its resident memory, and concurrent first uses share one load.
 */
export function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}
