import type { ImportJob, ImportKind } from '@im/protocol';
import { http } from '../api/http.ts';
import { postFile } from '../api/upload.ts';
import { currentSocket } from './connection.ts';
import { api, apiPath, type ResponseOf } from '../api/api.ts';
import type { MessageKey } from '../i18n/locales/en/index.ts';

// The server admins' imports (/api/admin/imports). They throw: the Import page shows failures where they happened.

/** The kinds an import reads, in the order offered, with what to upload for each. */
export const IMPORT_KINDS: ReadonlyArray<{ kind: ImportKind; label: MessageKey; hint: MessageKey }> = [
  { kind: 'slack', label: 'admin.import.kind.slack', hint: 'admin.import.kind.slack.hint' },
  { kind: 'mattermost', label: 'admin.import.kind.mattermost', hint: 'admin.import.kind.mattermost.hint' },
  { kind: 'discord', label: 'admin.import.kind.discord', hint: 'admin.import.kind.discord.hint' },
  { kind: 'im', label: 'admin.import.kind.im', hint: 'admin.import.kind.im.hint' },
];

/** How often a running import is asked after while no progress event came (the fallback of `import:progress`). */
export const IMPORT_POLL_MS = 1000;
/** Progress events this recent make a poll unnecessary. */
const EVENTS_FRESH_MS = 3000;

export const importFinished = (job: ImportJob): boolean => job.status === 'done' || job.status === 'failed';

/** Uploads an export and starts its import; the answer (202) is the queued job. */
export function startImport(
  kind: ImportKind,
  owner: string,
  file: File,
  onProgress: (fraction: number) => void,
): { promise: Promise<ImportJob>; abort(): void } {
  return postFile<ResponseOf<'import.upload'>>(
    apiPath('import.upload', { kind, owner }),
    202,
    file,
    http.getToken(),
    onProgress,
  );
}

/** Recent imports, newest first. */
export const listImports = (): Promise<ImportJob[]> => api.call('import.list');

export const getImport = (id: string): Promise<ImportJob> => api.call('import.get', { importId: id });

/** The list with `job` in place of its older state, or first when it is new. */
export function withJob(jobs: ImportJob[], job: ImportJob): ImportJob[] {
  return jobs.some((j) => j.id === job.id) ? jobs.map((j) => (j.id === job.id ? job : j)) : [job, ...jobs];
}

/** Skip reasons, the most frequent first. */
export function skippedReasons(job: ImportJob): Array<[string, number]> {
  return Object.entries(job.skippedReasons ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * Follows an import until it ends: each `import:progress` event for it, and
 * a poll every second while no event came lately (no socket, or a server
 * that does not send them). `onJob` gets every new state; the answer stops it.
 */
export function watchImport(id: string, onJob: (job: ImportJob) => void): () => void {
  let lastEventAt = 0;
  let stopped = false;
  const socket = currentSocket();
  const onEvent = (job: ImportJob) => {
    if (job.id !== id || stopped) return;
    lastEventAt = Date.now();
    onJob(job);
    if (importFinished(job)) stop();
  };
  socket?.on('import:progress', onEvent);
  let polling = false;
  const timer = setInterval(() => {
    if (polling || Date.now() - lastEventAt < EVENTS_FRESH_MS) return;
    polling = true;
    getImport(id)
      .then((job) => {
        if (stopped) return;
        onJob(job);
        if (importFinished(job)) stop();
      })
      // A failed poll is tried again at the next tick.
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  }, IMPORT_POLL_MS);
  function stop() {
    stopped = true;
    clearInterval(timer);
    socket?.off('import:progress', onEvent);
  }
  return stop;
}
