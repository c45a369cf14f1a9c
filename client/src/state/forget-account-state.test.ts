import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleState, sourceFiles } from '../test/module-state.ts';
import { forgetAccountState, registeredAccountState, type AccountState } from './account-state.ts';

// Every module of the app (but the page's entry point, which renders it), so every piece registers.
const modules = import.meta.glob<Record<string, unknown>>(
  ['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**', '!../main.tsx', '!../sw/**'],
  { eager: true },
);

const LEFT = 'left behind by the previous account';

/** A value of the same kind as `value` that is not it: what a session would have put there. */
function filled(value: unknown): unknown {
  if (Array.isArray(value)) return [LEFT];
  if (value !== null && typeof value === 'object') return { ...value, [LEFT]: LEFT };
  return LEFT;
}

/** Puts something of the signed-in account in every field, entry or member. */
function fill(state: AccountState): void {
  switch (state.kind) {
    case 'store': {
      const now = state.store.getState() as Record<string, unknown>;
      state.store.setState(Object.fromEntries(Object.keys(now).map((key) => [key, filled(now[key])])));
      return;
    }
    case 'map':
      state.map.set(LEFT, LEFT);
      return;
    case 'set':
      state.set.add(LEFT);
      return;
    case 'other':
      // Timers, a socket, bindings: filled by using the app (sign-out.test.ts), not generically.
      return;
  }
}

type Store = { getState(): object; setState(p: object): void; subscribe: unknown };
const isStore = (v: unknown): v is Store =>
  typeof v === 'function' && 'getState' in v && 'setState' in v && 'subscribe' in v;

describe('the session scope', () => {
  const registered = registeredAccountState();

  it('holds every store, Map and Set the modules make with it, each under its own name', () => {
    // What the source says is made in the scope (account-state.test.ts checks nothing else is kept).
    const root = join(import.meta.dirname, '..');
    const made = sourceFiles(root).flatMap((file) => moduleState(file, root).filter((s) => s.madeInScope));
    expect(made.length).toBeGreaterThan(25);
    expect(registered.filter((s) => s.kind !== 'other')).toHaveLength(made.length);
    expect(new Set(registered.map((s) => s.name)).size).toBe(registered.length);
  });

  it('puts every store, Map and Set back as it started in one call, whatever the account left in it', () => {
    const initial = new Map(
      registered.flatMap((s) => (s.kind === 'store' ? [[s.name, s.store.getState()] as const] : [])),
    );
    for (const state of registered) fill(state);
    forgetAccountState();
    for (const state of registered) {
      if (state.kind === 'store') {
        const kept = Object.fromEntries(
          state.keep.map((key) => [key, filled((initial.get(state.name) as Record<string, unknown>)[key])]),
        );
        expect(state.store.getState(), state.name).toEqual({ ...state.initial(), ...kept });
      }
      if (state.kind === 'map') expect([...state.map], state.name).toEqual([]);
      if (state.kind === 'set') expect([...state.set], state.name).toEqual([]);
    }
  });

  it('knows every store a module makes: one made with zustand alone would outlive the session', () => {
    const inScope = new Set(registered.flatMap((s) => (s.kind === 'store' ? [s.store] : [])));
    const stores = Object.entries(modules).flatMap(([file, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => isStore(value))
        .map(([name, value]) => ({ id: `${file}#${name}`, store: value })),
    );
    expect(stores.length).toBeGreaterThanOrEqual(10);
    expect(stores.filter((s) => !inScope.has(s.store as never)).map((s) => s.id)).toEqual([]);
  });
});
