/**
 * The span of message ids each file of a channel holds, to leave out a
 * message an earlier file of the same channel already held (two exports of
 * one channel over overlapping dates, read together). The exporter writes a
 * channel's messages for a span of time, all of them, and Discord's ids grow
 * with time: a message whose id lies within an earlier file's span is in that
 * file. Two numbers per file, where a set of ids would grow with the export.
 */
export class ChannelSpans {
  readonly #spans = new Map<string, Array<{ file: number; low: bigint; high: bigint }>>();
  #open: { channel: string; file: number; low?: bigint; high?: bigint } | undefined;

  /** Whether a file before `file` of the same channel held the message `id`. */
  heldBefore(channel: string, file: number, id: string): boolean {
    const spans = this.#spans.get(channel);
    if (!spans) return false;
    const n = snowflake(id);
    return n !== undefined && spans.some((s) => s.file < file && s.low <= n && n <= s.high);
  }

  /** Starts noting the ids of the file numbered `file`, one of `channel`'s. */
  begin(channel: string, file: number): void {
    this.#open = { channel, file };
  }

  note(id: string | undefined): void {
    const open = this.#open;
    const n = id === undefined ? undefined : snowflake(id);
    if (!open || n === undefined) return;
    if (open.low === undefined || n < open.low) open.low = n;
    if (open.high === undefined || n > open.high) open.high = n;
  }

  end(): void {
    const open = this.#open;
    this.#open = undefined;
    if (!open || open.low === undefined || open.high === undefined) return;
    const spans = this.#spans.get(open.channel) ?? [];
    spans.push({ file: open.file, low: open.low, high: open.high });
    this.#spans.set(open.channel, spans);
  }
}

function snowflake(id: string): bigint | undefined {
  return /^\d{1,20}$/.test(id) ? BigInt(id) : undefined;
}
