import { useTranslation } from 'react-i18next';
import { CustomEmojiImage } from './CustomEmojiContext.tsx';
import type { ShortcodeChoice } from './shortcode-query.ts';

/**
 * The emoji matching the `:shortcode:` being typed, the selected one marked;
 * a click (or Enter/Tab in the composer) puts it in the text.
 */
export function ShortcodeMenu(props: {
  id: string;
  choices: readonly ShortcodeChoice[];
  selected: number;
  onChoose: (choice: ShortcodeChoice) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className="mention-menu emoji-menu" role="listbox" id={props.id} aria-label={t('composer.emojiMatches')}>
      {props.choices.map((choice, i) => (
        <li
          key={choice.code}
          id={`${props.id}-${i}`}
          role="option"
          aria-selected={i === props.selected}
          className={i === props.selected ? 'selected' : undefined}
          data-testid="emoji-option"
          onMouseDown={(e) => {
            // Keeps the focus in the composer.
            e.preventDefault();
            props.onChoose(choice);
          }}
        >
          <span className="emoji-menu-glyph" aria-hidden="true">
            {'custom' in choice ? <CustomEmojiImage emoji={choice.custom} /> : choice.emoji}
          </span>{' '}
          <span className="username">:{choice.code}:</span>
        </li>
      ))}
    </ul>
  );
}
