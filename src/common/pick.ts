/** The named fields of an object and nothing else: how the app hands each routes plugin the services it uses. */
export function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;
}
