import type { Id, Int, Timestamp } from './index.ts';

/** What `npm run import` and the Import page read: a Slack, Mattermost or Discord export, or this platform's own. */
export type ImportKind = 'slack' | 'mattermost' | 'discord' | 'im';

/**
 * What an import wrote, as the last stdout line of `npm run import` prints
 * it. `skipped` counts what was not written: already there from an earlier
 * run, or unusable (the reasons are in `ImportJob.skippedReasons`).
 */
export interface ImportSummary {
  groups: Int;
  panels: Int;
  users: Int;
  messages: Int;
  /** Thread replies among `messages`. */
  replies: Int;
  reactions: Int;
  files: Int;
  skipped: Int;
}

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

/** One import, started by a server admin from the app or by `npm run import`: `GET /api/admin/imports/:id`. */
export interface ImportJob {
  id: Id;
  kind: ImportKind;
  /** The uploaded file's or the command line's path's last part. */
  fileName: string;
  status: ImportStatus;
  /** Where it is: a phase (`queued`, `reading`, `people`, `groups`, `messages`, `finishing`, `done`) and the messages written so far. */
  progress: { phase: string; messages: Int; total?: Int };
  summary?: ImportSummary;
  /** Why things were skipped, with counts (`already imported`, `system message`, `file missing from the export`...). */
  skippedReasons?: Record<string, Int>;
  /** The groups it made (or found made by an earlier run). */
  groupIds: Id[];
  error?: { code: string; message: string };
  startedAt: Timestamp;
  finishedAt?: Timestamp;
}

/** `POST /api/groups/:id/export`, `POST /api/users/me/export` → 202: the export job's id (then `GET /api/exports/:id`). */
export interface ExportAccepted {
  id: Id;
}

/** `POST /api/groups/:id/export`, `POST /api/users/me/export` → 202 `{id}`; `GET /api/exports/:id`. */
export interface ExportJob {
  id: Id;
  kind: 'group' | 'personal';
  status: 'running' | 'done' | 'failed';
  /** Where to download the archive, once done (signed, for the one who asked). */
  url?: string;
  /** When `url` stops working (ask `GET /api/exports/:id` again for a new one). */
  urlExpiresAt?: Timestamp;
  /** The archive's size in bytes, once done. */
  size?: Int;
  error?: { code: string; message: string };
  createdAt: Timestamp;
  finishedAt?: Timestamp;
}

/** `POST /api/admin/users/:id/claim-link`: the page where an imported account's person sets a password (one use, 7 days). */
export interface ClaimLink {
  url: string;
  expiresAt: Timestamp;
}
