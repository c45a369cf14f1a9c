import type { CommandNote } from '../../../state/command-sends.ts';

const NONE: readonly CommandNote[] = [];

/**
 * My slash commands in this converse that are running or failed: a greyed
 * line while the server works on one, a note when the answer will come
 * later, and a clear error when it failed. Answered ones disappear.
 */
export function CommandNotes(props: { notes?: readonly CommandNote[]; onDismiss: (note: CommandNote) => void }) {
  const notes = props.notes ?? NONE;
  if (notes.length === 0) return null;
  return (
    <ul className="command-notes" aria-label="Commands sent">
      {notes.map((note) => (
        <li
          key={note.id}
          className={`command-note ${note.status}`}
          data-testid="command-note"
          data-status={note.status}
        >
          <span role={note.status === 'failed' ? 'alert' : 'status'}>
            {note.status === 'sending' && <>/{note.command} is working…</>}
            {note.status === 'working' && (
              <>/{note.command} is taking a while: its answer will show here when it is ready.</>
            )}
            {note.status === 'failed' && (
              <>
                /{note.command} failed. {note.error}
              </>
            )}
          </span>
          {note.status !== 'sending' && (
            <button type="button" className="link" onClick={() => props.onDismiss(note)}>
              Dismiss <span className="visually-hidden">the note about /{note.command}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
