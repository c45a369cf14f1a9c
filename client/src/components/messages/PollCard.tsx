import { formatList } from './format.ts';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const { poll } = props;
  const name = useId();
  const total = poll.options.reduce((n, o) => n + o.votes, 0);
  const voted = poll.myVotes.length > 0;
  return (
    <section className="poll-card" data-testid="poll" aria-label={t('polls.label', { question: poll.question })}>
      <div className="poll-labels">
        <span className="poll-label">{poll.multiple ? t('polls.multiple') : t('polls.poll')}</span>
        {poll.anonymous && <span className="poll-label">{t('polls.anonymous')}</span>}
        {poll.closed ? (
          <span className="poll-label" data-testid="poll-closed">
            {t('polls.closed')}
          </span>
        ) : (
          poll.closesAt && (
            <span className="poll-label">{t('polls.closesAt', { when: formatMoment(poll.closesAt) })}</span>
          )
        )}
      </div>
      <fieldset disabled={poll.closed}>
        <legend className="visually-hidden">{poll.question}</legend>
        {poll.options.map((option, index) => {
          const share = total > 0 ? Math.round((option.votes / total) * 100) : 0;
          const chosen = poll.myVotes.includes(index);
          const voters = option.voterIds && formatList(option.voterIds.map((id) => displayName(props.users[id])));
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
                {t('polls.count', { votes: option.votes, share: share / 100 })}
              </span>
            </label>
          );
        })}
      </fieldset>
      <div className="poll-foot">
        <span data-testid="poll-total">
          {voted ? t('polls.totalVoted', { count: total }) : t('polls.total', { count: total })}
        </span>
        {voted && !poll.closed && (
          <button type="button" className="link" onClick={() => props.onVote([])}>
            {t('polls.withdraw')}
          </button>
        )}
        {props.mine && !poll.closed && (
          <button type="button" className="link" onClick={props.onClose}>
            {t('polls.close')}
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
