/**
 * Slack's `ts`: seconds since the epoch with six decimals (`1700000000.000100`),
 * also the message's id within its channel. Read from the string, not as a
 * float, so the milliseconds come out exact.
 */
const TS = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

export function slackTsToDate(ts: string | undefined): Date | undefined {
  const m = ts === undefined ? null : TS.exec(ts);
  if (!m) return undefined;
  const millis = Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0').slice(0, 3));
  return new Date(millis);
}

export const isSlackTs = (ts: string | undefined): ts is string => ts !== undefined && TS.test(ts);
