import type { PublicUser, Reaction } from '@im/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n, t } from '../../i18n/i18n.ts';
import { displayName } from '../../state/users.ts';
import { EmojiGlyph } from '../emoji/CustomEmojiContext.tsx';
import { api } from '../../api/api.ts';

/** Names shown in a reaction's tooltip; the rest are counted. */
const NAMED = 5;

/** "Alice, Bob, and 3 others reacted with 👍" from the first reactors and the count. */
export function reactorsText(users: PublicUser[], count: number, emoji: string): string {
  const names = users.slice(0, NAMED).map((u) => displayName(u));
  const others = Math.max(0, count - names.length);
  // The language's own list ("a, b, and c"; "a、b和c").
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  const who =
    names.length === 0
      ? t('keyboard.reactors.unknown', { count })
      : list.format(others > 0 ? [...names, t('keyboard.reactors.others', { count: others })] : names);
  return t('keyboard.reactors', { who, emoji });
}

/**
 * One reaction under a message: toggles the caller's reaction on click, and
 * on hover or focus asks who reacted (once per count) for its tooltip.
 */
export function ReactionChip(props: { messageId: string; reaction: Reaction; onToggle(): void }) {
  const { t } = useTranslation();
  const { messageId, reaction } = props;
  const [who, setWho] = useState<{ count: number; text: string }>();
  const load = () => {
    if (who?.count === reaction.count) return;
    const count = reaction.count;
    api
      .call('chat.reactors', { messageId, emoji: reaction.emoji, limit: NAMED })
      .then((users) => setWho({ count, text: reactorsText(users, count, reaction.emoji) }))
      .catch(() => undefined);
  };
  return (
    <button
      type="button"
      className={reaction.me ? 'reaction me' : 'reaction'}
      aria-pressed={reaction.me}
      aria-label={t('keyboard.reaction', { emoji: reaction.emoji, count: reaction.count })}
      title={who?.text}
      onMouseEnter={load}
      onFocus={load}
      onClick={props.onToggle}
    >
      <EmojiGlyph emoji={reaction.emoji} /> <span>{reaction.count}</span>
    </button>
  );
}
