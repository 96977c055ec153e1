/**
 * A module loaded on first use instead of with the module that names it: the runner loads the global
 * setup's modules before any test runs, and a parser a run may never call (TypeScript's compiler,
 * YAML, the style and markup parsers) would cost every run its load time. `load` is the caller's `require` of a package.
 */
export function lazy<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}
