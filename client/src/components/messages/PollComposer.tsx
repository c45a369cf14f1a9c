import './poll.css';
import type { PollBody } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { sendPoll } from '../../state/polls.ts';
import { Dialog } from '../common/Dialog.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { FormActions } from '../common/FormActions.tsx';
import { useAction } from '../common/useAction.ts';

const MIN_OPTIONS = 2;
const MAX_OPTIONS = 10;

/** The poll a form describes, or why it cannot be sent yet. */
export function pollFromForm(form: {
  question: string;
  options: string[];
  multiple: boolean;
  anonymous: boolean;
  closesAt: string;
}): PollBody | string {
  const question = form.question.trim();
  const options = form.options.map((o) => o.trim()).filter(Boolean);
  if (!question) return 'Ask a question';
  if (options.length < MIN_OPTIONS) return `Give at least ${MIN_OPTIONS} options`;
  if (new Set(options.map((o) => o.toLocaleLowerCase())).size !== options.length) return 'Each option must differ';
  const poll: PollBody = { question, options, multiple: form.multiple, anonymous: form.anonymous };
  if (form.closesAt) {
    const at = new Date(form.closesAt);
    if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) return 'The closing time must be in the future';
    poll.closesAt = at.toISOString();
  }
  return poll;
}

/** "Poll" in the composer: a question, 2 to 10 options, and how it is answered. */
export function PollComposer(props: { converseId: string; onClose: () => void }) {
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState(['', '']);
  const [multiple, setMultiple] = useState(false);
  const [anonymous, setAnonymous] = useState(false);
  const [closesAt, setClosesAt] = useState('');
  const { busy, error, run } = useAction();
  const poll = pollFromForm({ question, options, multiple, anonymous, closesAt });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typeof poll === 'string') return;
    if (await run(() => sendPoll(props.converseId, poll))) props.onClose();
  };
  return (
    <Dialog title="New poll" onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label>
          Question
          <input value={question} maxLength={300} onChange={(e) => setQuestion(e.target.value)} required />
        </label>
        <ul className="poll-options-editor" aria-label="Options">
          {options.map((option, index) => (
            <li key={index}>
              <input
                aria-label={`Option ${index + 1}`}
                value={option}
                maxLength={100}
                onChange={(e) => setOptions(options.map((o, i) => (i === index ? e.target.value : o)))}
              />
              {options.length > MIN_OPTIONS && (
                <button
                  type="button"
                  aria-label={`Remove option ${index + 1}`}
                  onClick={() => setOptions(options.filter((_, i) => i !== index))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        {options.length < MAX_OPTIONS && (
          <button type="button" className="link" onClick={() => setOptions([...options, ''])}>
            Add an option
          </button>
        )}
        <label className="check">
          <input type="checkbox" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} /> Allow several
          choices
        </label>
        <label className="check">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} /> Anonymous
          (nobody sees who voted, not even admins)
        </label>
        <label>
          Closes at (optional)
          <input type="datetime-local" value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
        </label>
        {typeof poll === 'string' && (question || options.some(Boolean)) && <p className="hint">{poll}</p>}
        <ErrorLine error={error} />
        <FormActions onCancel={props.onClose} submit="Send poll" disabled={busy || typeof poll === 'string'} />
      </form>
    </Dialog>
  );
}
