import { useTranslation } from 'react-i18next';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { EmojiPicker } from './EmojiPicker.tsx';

/** The composer's emoji button: the picker inserts at the caret and stays open for more. */
export function ComposerEmojiButton(props: { disabled?: boolean; onInsert(emoji: string): void }) {
  const { t } = useTranslation();
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div ref={ref} className="composer-emoji">
      <button
        type="button"
        className="icon-button"
        aria-label={t('composer.emoji')}
        title={t('composer.emoji')}
        aria-expanded={open}
        disabled={props.disabled}
        onClick={() => setOpen(!open)}
      >
        <Icon name="smile" />
      </button>
      {open && <EmojiPicker label={t('composer.emoji')} onPick={props.onInsert} />}
    </div>
  );
}
