import './poll.css';
import type { Message, Poll, PublicUser } from '@im/protocol';
import { useId } from 'react';
import { nextChoice } from '../../state/poll-votes.ts';
import { closePoll, votePoll } from '../../state/polls.ts';
import { displayName } from '../../state/users.ts';
import { formatMoment } from './format.ts';

/** A poll as its readers see it: options to pick, bars with counts and shares, and what applies to it. */
export function PollView(props: {
  poll: Poll;
  users: Record<string, PublicUser>;
  /** The author may close it early. */
  mine: boolean;
  onVote: (options: number[]) => void;
  onClose: () => void;
}) {
  const { poll } = props;
  const name = useId();
  const total = poll.options.reduce((n, o) => n + o.votes, 0);
  const voted = poll.myVotes.length > 0;
  return (
    <section className="poll-card" data-testid="poll" aria-label={`Poll: ${poll.question}`}>
      <div className="poll-labels">
        <span className="poll-label">{poll.multiple ? 'Poll · choose any' : 'Poll'}</span>
        {poll.anonymous && <span className="poll-label">Anonymous</span>}
        {poll.closed ? (
          <span className="poll-label" data-testid="poll-closed">
            Closed
          </span>
        ) : (
          poll.closesAt && <span className="poll-label">Closes at {formatMoment(poll.closesAt)}</span>
        )}
      </div>
      <fieldset disabled={poll.closed}>
        <legend className="visually-hidden">{poll.question}</legend>
        {poll.options.map((option, index) => {
          const share = total > 0 ? Math.round((option.votes / total) * 100) : 0;
          const chosen = poll.myVotes.includes(index);
          const voters = option.voterIds?.map((id) => displayName(props.users[id])).join(', ');
          return (
            <label
              key={index}
              className={`poll-option${chosen ? ' mine' : ''}`}
              data-testid="poll-option"
              title={voters || undefined}
            >
              <span className="poll-bar" style={{ width: `${share}%` }} aria-hidden="true" />
              <input
                type={poll.multiple ? 'checkbox' : 'radio'}
                name={name}
                checked={chosen}
                disabled={poll.closed}
                onChange={() => props.onVote(nextChoice(poll.myVotes, index, poll.multiple))}
              />
              <span className="poll-option-text">{option.text}</span>
              <span className="poll-count" data-testid="poll-count">
                {option.votes} · {share}%
              </span>
            </label>
          );
        })}
      </fieldset>
      <div className="poll-foot">
        <span data-testid="poll-total">
          {total === 1 ? '1 vote' : `${total} votes`}
          {voted && ' · you voted'}
        </span>
        {voted && !poll.closed && (
          <button type="button" className="link" onClick={() => props.onVote([])}>
            Withdraw my vote
          </button>
        )}
        {props.mine && !poll.closed && (
          <button type="button" className="link" onClick={props.onClose}>
            Close poll
          </button>
        )}
      </div>
    </section>
  );
}

/** A message's poll, voting and closing through the server. */
export function PollCard(props: { message: Message; me: PublicUser; users: Record<string, PublicUser> }) {
  const { message } = props;
  if (!message.poll || message.deleted) return null;
  return (
    <PollView
      poll={message.poll}
      users={props.users}
      mine={message.authorId === props.me.id}
      onVote={(options) => void votePoll(message, options)}
      onClose={() => void closePoll(message)}
    />
  );
}
