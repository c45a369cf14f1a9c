import { useTranslation } from 'react-i18next';
import type { CommandNote } from '../../../state/command-sends.ts';

const NONE: readonly CommandNote[] = [];

/**
 * My slash commands in this converse that are running or failed: a greyed
 * line while the server works on one, a note when the answer will come
 * later, and a clear error when it failed. Answered ones disappear.
 */
export function CommandNotes(props: { notes?: readonly CommandNote[]; onDismiss: (note: CommandNote) => void }) {
  const { t } = useTranslation();
  const notes = props.notes ?? NONE;
  if (notes.length === 0) return null;
  return (
    <ul className="command-notes" aria-label={t('composer.commandsSent')}>
      {notes.map((note) => (
        <li
          key={note.id}
          className={`command-note ${note.status}`}
          data-testid="command-note"
          data-status={note.status}
        >
          <span role={note.status === 'failed' ? 'alert' : 'status'}>
            {note.status === 'sending' && t('composer.commandWorking', { command: note.command })}
            {note.status === 'working' && t('composer.commandSlow', { command: note.command })}
            {note.status === 'failed' &&
              t('composer.commandFailed', { command: note.command, error: note.error ?? '' })}
          </span>
          {note.status !== 'sending' && (
            <button type="button" className="link" onClick={() => props.onDismiss(note)}>
              {t('composer.dismiss')}{' '}
              <span className="visually-hidden">{t('composer.dismissNote', { command: note.command })}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
