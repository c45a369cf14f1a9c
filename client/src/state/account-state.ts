import { create, type StoreApi, type UseBoundStore } from 'zustand';

/**
 * The session scope: everything the web app holds for the signed-in account
 * is forgotten in one call when that account's session ends (signing out,
 * another account signing in, the server ending the session with a 401 or a
 * refused socket). Each module that keeps such state makes it here (a store,
 * a Map, a Set) or registers how to forget it, where the state is defined, so
 * nothing relies on the sign-out code knowing every cache.
 * account-state.test.ts fails when a module keeps state outside the scope;
 * forget-account-state.test.ts fills every piece registered and checks one
 * call puts each back as it started.
 */
export type AccountState =
  | { name: string; kind: 'store'; store: StoreApi<object>; initial: () => object; keep: readonly string[] }
  | { name: string; kind: 'map'; map: Map<unknown, unknown> }
  | { name: string; kind: 'set'; set: Set<unknown> }
  /** State a plain reset cannot forget: timers to clear, a socket to close, bindings to set back. */
  | { name: string; kind: 'other'; forget: () => void };

// By name: a module evaluated again (a hot reload in development) replaces its entry.
const registry = new Map<string, AccountState>();

function register(state: AccountState): void {
  registry.set(state.name, state);
}

/** Registers how to forget a module's state of the signed-in account (called once, at module level). */
export function forgetOnSignOut(name: string, forget: () => void): void {
  register({ name, kind: 'other', forget });
}

/**
 * A zustand store of the signed-in account's state: back to `initial()` when
 * the session ends, but for the `keep` fields (which are not the account's).
 */
export function accountStore<T extends object>(
  name: string,
  initial: () => T,
  opts: { keep?: ReadonlyArray<keyof T & string> } = {},
): UseBoundStore<StoreApi<T>> {
  const store = create<T>(initial);
  register({ name, kind: 'store', store: store as StoreApi<object>, initial, keep: opts.keep ?? [] });
  return store;
}

/** A Map that holds the signed-in account's data (a cache, calls on their way): emptied when the session ends. */
export function accountMap<K, V>(name: string): Map<K, V> {
  const map = new Map<K, V>();
  register({ name, kind: 'map', map: map as Map<unknown, unknown> });
  return map;
}

/** A Set that holds the signed-in account's data: emptied when the session ends. */
export function accountSet<T>(name: string): Set<T> {
  const set = new Set<T>();
  register({ name, kind: 'set', set: set as Set<unknown> });
  return set;
}

/** Every piece of account state registered so far (the modules imported so far). */
export function registeredAccountState(): readonly AccountState[] {
  return [...registry.values()];
}

function forget(state: AccountState): void {
  switch (state.kind) {
    case 'store': {
      const { store, initial, keep } = state;
      store.setState((s) => {
        const kept = Object.fromEntries(keep.map((key) => [key, (s as Record<string, unknown>)[key]]));
        return { ...initial(), ...kept };
      }, true);
      return;
    }
    case 'map':
      return state.map.clear();
    case 'set':
      return state.set.clear();
    case 'other':
      return state.forget();
  }
}

/**
 * Forgets the previous account's state everywhere. Every registered piece is
 * forgotten even when one throws; the first error is thrown afterwards.
 */
export function forgetAccountState(): void {
  let failure: unknown;
  for (const state of registry.values()) {
    try {
      forget(state);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
}
