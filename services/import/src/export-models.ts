import type { Connection } from 'mongoose';

/** The export jobs' models (group and personal exports). */
export type ExportModels = Record<never, never>;

export const exportModels = (_connection: Connection): ExportModels => ({});
