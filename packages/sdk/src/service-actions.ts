import type { ActionMap, ActionName, ActionParams, ActionResult } from './actions.ts';
import type { Ctx } from './context.ts';
import type { RateLimitName } from './rate-limit/policy.ts';

/** The actions of ActionMap that service `S` serves, by their name inside it (`'chat.send'` -> `'send'`). */
type ServedName<S extends string> = {
  [A in ActionName]: A extends `${S}.${infer N}` ? N : never;
}[ActionName];

/**
 * Any action definition (moleculer's schema, so any key), with `rateLimit`
 * naming limits of the table: a typo fails the type check.
 */
export interface ImAction {
  rateLimit?: RateLimitName | readonly RateLimitName[];
  handler?: unknown;
  [key: string]: unknown;
}

/** An action other services call: its handler takes what ActionMap says callers send and answers what they expect. */
export type ServedAction<A extends keyof ActionMap> = ImAction & {
  handler: (ctx: Ctx<ActionParams<A>>) => ActionResult<A> | Promise<ActionResult<A>>;
};

/**
 * A service's actions (or a part of them), checked at compile time: every
 * action ActionMap lists for the service is held to its entry, every
 * `rateLimit` to the table. Services declare theirs with `defineActions`
 * (the service's `actions`, and factories that build the object in a
 * block); a factory that returns an object literal directly is checked
 * where the service spreads it, so it writes `rateLimit: 'send' as const`
 * to keep the name a literal there.
 */
export type ServiceActions<S extends string> = {
  [N in ServedName<S>]?: ServedAction<`${S}.${N}` & ActionName>;
} & { [name: string]: ImAction };

/**
 * `defineActions('group', { ... })`: the actions as written (their types
 * kept for the service's own use), checked as ServiceActions<'group'>.
 */
export function defineActions<S extends string, T extends ServiceActions<S>>(_service: S, actions: T): T {
  return actions;
}
