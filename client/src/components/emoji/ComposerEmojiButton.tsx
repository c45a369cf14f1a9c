import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { EmojiPicker } from './EmojiPicker.tsx';

/** The composer's emoji button: the picker inserts at the caret and stays open for more. */
export function ComposerEmojiButton(props: { disabled?: boolean; onInsert(emoji: string): void }) {
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div ref={ref} className="composer-emoji">
      <button
        type="button"
        className="icon-button"
        aria-label="Insert emoji"
        title="Insert emoji"
        aria-expanded={open}
        disabled={props.disabled}
        onClick={() => setOpen(!open)}
      >
        <Icon name="smile" />
      </button>
      {open && <EmojiPicker label="Insert emoji" onPick={props.onInsert} />}
    </div>
  );
}
