import { useTranslation } from 'react-i18next';
import type { CommandSuggestion } from '../../../state/commands.ts';

/** The commands matching what follows `/`, the selected one marked; a click (or Enter/Tab in the composer) picks one. */
export function CommandMenu(props: {
  id: string;
  candidates: readonly CommandSuggestion[];
  selected: number;
  onChoose: (command: CommandSuggestion) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className="mention-menu command-menu" role="listbox" id={props.id} aria-label={t('composer.commands')}>
      {props.candidates.map((command, i) => (
        <li
          key={command.trigger}
          id={`${props.id}-${i}`}
          role="option"
          aria-selected={i === props.selected}
          className={i === props.selected ? 'selected' : undefined}
          data-testid="command-option"
          onMouseDown={(e) => {
            // Keeps the focus in the composer.
            e.preventDefault();
            props.onChoose(command);
          }}
        >
          <strong>/{command.trigger}</strong>
          {command.description && <span className="command-description"> {command.description}</span>}
          {command.builtIn && <span className="command-kind"> {t('composer.builtIn')}</span>}
        </li>
      ))}
    </ul>
  );
}
