import type { ServiceSchema } from 'moleculer';
import type { ImportDeps } from './deps.ts';

/** Group and personal exports. */
export const exportActions = (_deps: ImportDeps): NonNullable<ServiceSchema['actions']> => ({});
