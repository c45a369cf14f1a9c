import { t } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';
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
  if (!question) return t('polls.form.noQuestion');
  if (options.length < MIN_OPTIONS) return t('polls.form.tooFew', { min: MIN_OPTIONS });
  if (new Set(options.map((o) => o.toLocaleLowerCase())).size !== options.length) return t('polls.form.same');
  const poll: PollBody = { question, options, multiple: form.multiple, anonymous: form.anonymous };
  if (form.closesAt) {
    const at = new Date(form.closesAt);
    if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) return t('polls.form.past');
    poll.closesAt = at.toISOString();
  }
  return poll;
}

/** "Poll" in the composer: a question, 2 to 10 options, and how it is answered. */
export function PollComposer(props: { converseId: string; onClose: () => void }) {
  const { t } = useTranslation();
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
    <Dialog title={t('polls.form.title')} onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label>
          {t('polls.form.question')}
          <input value={question} maxLength={300} onChange={(e) => setQuestion(e.target.value)} required />
        </label>
        <ul className="poll-options-editor" aria-label={t('polls.form.options')}>
          {options.map((option, index) => (
            <li key={index}>
              <input
                aria-label={t('polls.form.option', { n: index + 1 })}
                value={option}
                maxLength={100}
                onChange={(e) => setOptions(options.map((o, i) => (i === index ? e.target.value : o)))}
              />
              {options.length > MIN_OPTIONS && (
                <button
                  type="button"
                  aria-label={t('polls.form.removeOption', { n: index + 1 })}
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
            {t('polls.form.addOption')}
          </button>
        )}
        <label className="check">
          <input type="checkbox" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} />{' '}
          {t('polls.form.multiple')}
        </label>
        <label className="check">
          <input type="checkbox" checked={anonymous} onChange={(e) => setAnonymous(e.target.checked)} />{' '}
          {t('polls.form.anonymous')}
        </label>
        <label>
          {t('polls.form.closesAt')}
          <input type="datetime-local" value={closesAt} onChange={(e) => setClosesAt(e.target.value)} />
        </label>
        {typeof poll === 'string' && (question || options.some(Boolean)) && <p className="hint">{poll}</p>}
        <ErrorLine error={error} />
        <FormActions
          onCancel={props.onClose}
          submit={t('polls.form.send')}
          disabled={busy || typeof poll === 'string'}
        />
      </form>
    </Dialog>
  );
}
