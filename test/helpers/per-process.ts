/**
 * A value made once per test process and shared by every file the process runs. Vitest gives each
 * test file its own instances of the modules it imports, so a module's own variable lives for one
 * file; this one lives on `globalThis`, under a registered symbol of its name. What changes over
 * the process's life is kept in a slot object the value holds.
 */
export function perProcess<T>(name: string, make: () => T): T {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(`chronicle.${name}`);
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}
