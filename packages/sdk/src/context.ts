import type { Context } from 'moleculer';
import type { CallerMeta } from './validation/params.ts';

/** An action's context: its validated parameters and who is calling. */
export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;
