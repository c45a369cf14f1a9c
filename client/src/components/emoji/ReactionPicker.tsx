import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../common/Icon.tsx';
import { QUICK_REACTIONS } from '../messages/handlers.ts';
import { EmojiPicker } from './EmojiPicker.tsx';

/** The quick reactions, and "more" for the full picker (every emoji, the group's own, recently used). */
export function ReactionPicker(props: { onPick(emoji: string): void }) {
  const { t } = useTranslation();
  const [full, setFull] = useState(false);
  if (full) return <EmojiPicker label={t('keyboard.emoji.pickReaction')} onPick={props.onPick} />;
  return (
    <div className="reaction-picker">
      {QUICK_REACTIONS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          aria-label={t('keyboard.emoji.react', { emoji })}
          onClick={() => props.onPick(emoji)}
        >
          {emoji}
        </button>
      ))}
      <button
        type="button"
        aria-label={t('keyboard.emoji.more')}
        title={t('keyboard.emoji.more')}
        onClick={() => setFull(true)}
      >
        {/* An icon: a full-width plus shows as a box where no font has it. */}
        <Icon name="plus" size={18} />
      </button>
    </div>
  );
}
