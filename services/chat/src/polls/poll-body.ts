import type { PollBody } from '@im/protocol';
import { invalid as invalidInput } from '@im/sdk';
import type { PollDoc } from '../models.ts';

const invalid = (field: string, message: string) => invalidInput(message, [{ field, type: 'invalid', message }]);

/** A new poll as stored, from a send's `poll` (its shape already validated): distinct options, a future close. */
export function newPoll(body: PollBody, now = Date.now()): PollDoc {
  const texts = body.options.map((t) => t.trim());
  const seen = new Set<string>();
  for (const text of texts) {
    const folded = text.toLocaleLowerCase();
    if (seen.has(folded)) throw invalid('poll.options', `Poll options must differ: '${text}' is there twice`);
    seen.add(folded);
  }
  let closesAt: Date | undefined;
  if (body.closesAt !== undefined) {
    closesAt = new Date(body.closesAt);
    if (Number.isNaN(closesAt.getTime())) throw invalid('poll.closesAt', "'poll.closesAt' is not a valid time");
    if (closesAt.getTime() <= now) throw invalid('poll.closesAt', "'poll.closesAt' must be in the future");
  }
  return {
    question: body.question.trim(),
    options: texts.map((text) => ({ text, votes: 0, ...(body.anonymous ? {} : { voterIds: [] }) })),
    multiple: body.multiple === true,
    anonymous: body.anonymous === true,
    ...(closesAt ? { closesAt } : {}),
  };
}

/** A vote's option indexes: in range, each once, a single one unless the poll allows several. */
export function checkedChoice(poll: PollDoc, options: number[]): number[] {
  const chosen = [...new Set(options)].sort((a, b) => a - b);
  if (chosen.length !== options.length) throw invalid('options', 'An option can be chosen only once');
  if (chosen.some((i) => i >= poll.options.length))
    throw invalid('options', `This poll has ${poll.options.length} options (indexes 0 to ${poll.options.length - 1})`);
  if (!poll.multiple && chosen.length > 1) throw invalid('options', 'This poll takes a single choice');
  return chosen;
}
