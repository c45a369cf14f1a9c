import { type ExportFiles, readJson } from '../../source/export-files.ts';
import type { SkipCounter } from '../../source/skip-counter.ts';
import type { SlackMessage } from './export-shapes.ts';
import { slackTsToDate } from './slack-time.ts';
import { cleanMessage } from './clean-shapes.ts';

/**
 * The messages of one conversation folder, a day file at a time (only one
 * day is ever in memory), each day in `ts` order. A day file that is not a
 * JSON array is passed over and counted, when `skipped` is given.
 */
export async function* readDays(
  files: ExportFiles,
  dayFiles: readonly string[],
  skipped: SkipCounter | undefined,
): AsyncIterable<SlackMessage> {
  for (const name of dayFiles) {
    const day = await readDay(files, name);
    if (!day) {
      skipped?.add('unreadable day file');
      continue;
    }
    yield* day;
  }
}

async function readDay(files: ExportFiles, name: string): Promise<SlackMessage[] | undefined> {
  let parsed: unknown;
  try {
    parsed = await readJson<unknown>(files, name);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const messages = parsed.map(cleanMessage).filter((m) => m !== undefined);
  // Slack writes a day in time order; sorted anyway (stable), so a thread's
  // root always comes before its replies.
  return messages
    .map((message, index) => ({ message, index, time: slackTsToDate(message.ts)?.getTime() ?? 0 }))
    .sort((a, b) => a.time - b.time || compareTs(a.message.ts, b.message.ts) || a.index - b.index)
    .map((entry) => entry.message);
}

function compareTs(a: string | undefined, b: string | undefined): number {
  return (a ?? '').localeCompare(b ?? '', 'en', { numeric: true });
}
