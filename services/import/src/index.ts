export type { ImportSource } from './source/types.ts';
