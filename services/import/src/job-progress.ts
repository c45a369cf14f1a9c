import type { Types } from 'mongoose';
import type { ImportModels } from './models.ts';
import type { ImportProgress } from './write/run-import.ts';

/** How often a running import writes its progress to its job (the Import page reads it). */
const EVERY_MS = 1000;

/** Writes a job's progress at most once a second (and every phase change at once). */
export function jobProgress(models: ImportModels, jobId: Types.ObjectId, also?: (p: ImportProgress) => void) {
  let last = 0;
  let phase = '';
  return (p: ImportProgress): void => {
    also?.(p);
    const now = Date.now();
    if (p.phase === phase && now - last < EVERY_MS) return;
    last = now;
    phase = p.phase;
    void models.imports
      .updateOne(
        { _id: jobId },
        {
          $set: {
            phase: p.phase,
            messages: p.messages,
            updatedAt: new Date(now),
            ...(p.total !== undefined ? { total: p.total } : {}),
          },
        },
      )
      .catch(() => undefined);
  };
}
