import type { ServiceSchema } from 'moleculer';
import type { ImportDeps } from './deps.ts';

/** Imports started from the app, and the running platform's side of every import. */
export const importActions = (_deps: ImportDeps): NonNullable<ServiceSchema['actions']> => ({});
