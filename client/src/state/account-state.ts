import { create, type StoreApi, type UseBoundStore } from 'zustand';

/**
 * Everything the web app holds for the signed-in account is forgotten in one
 * call when that account's session ends (signing out, another account signing
 * in, the server ending the session). Each module that keeps such state
 * registers how to forget it where the state is defined, so nothing relies on
 * the sign-out code knowing every cache; account-state.test.ts fails when a
 * module keeps state without registering it.
 */
type Forget = () => void;

const forgetters = new Set<Forget>();

/** Registers how to forget a module's state of the signed-in account (called once, at module level). */
export function forgetOnSignOut(forget: Forget): void {
  forgetters.add(forget);
}

/**
 * Forgets the previous account's state everywhere. Every registered reset
 * runs even when one throws; the first error is thrown afterwards.
 */
export function forgetAccountState(): void {
  let failure: unknown;
  for (const forget of forgetters) {
    try {
      forget();
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
}

/** A zustand store of the signed-in account's state: back to `initial()` when the session ends. */
export function accountStore<T extends object>(initial: () => T): UseBoundStore<StoreApi<T>> {
  const store = create<T>(initial);
  forgetOnSignOut(() => store.setState(initial(), true));
  return store;
}
