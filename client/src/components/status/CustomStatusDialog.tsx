import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';
import { changeMyStatus } from '../../state/status.ts';
import { Dialog } from '../common/Dialog.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { FormActions } from '../common/FormActions.tsx';
import { useAction } from '../common/useAction.ts';
import { CLEAR_CHOICES, QUICK_EMOJI } from './status-choices.ts';

/** What others see beside my name: an emoji and up to 100 characters, cleared after a while if I like. */
export function CustomStatusDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  const current = useStore((s) => s.myStatus);
  const [emoji, setEmoji] = useState(current?.emoji ?? '');
  const [text, setText] = useState(current?.text ?? '');
  const [clear, setClear] = useState('never');
  const { busy, error, run } = useAction();
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const at = CLEAR_CHOICES.find((c) => c.value === clear)?.at(new Date()) ?? null;
    const ok = await run(() =>
      changeMyStatus({ text: text.trim(), emoji: emoji.trim(), clearAt: at ? at.toISOString() : null }),
    );
    if (ok) props.onClose();
  };
  return (
    <Dialog title={t('status.custom.title')} onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void save(e)}>
        <div className="quick-emoji" role="group" aria-label={t('status.custom.pick')}>
          {QUICK_EMOJI.map((e) => (
            <button
              key={e}
              type="button"
              className={e === emoji ? 'icon-button selected' : 'icon-button'}
              aria-pressed={e === emoji}
              onClick={() => setEmoji(e === emoji ? '' : e)}
            >
              {e}
            </button>
          ))}
        </div>
        <label>
          {t('status.custom.emoji')}
          <input
            value={emoji}
            maxLength={64}
            placeholder={t('status.custom.emoji.placeholder')}
            onChange={(e) => setEmoji(e.target.value)}
          />
        </label>
        <label>
          {t('status.custom.text')}
          <input
            value={text}
            maxLength={100}
            placeholder={t('status.custom.text.placeholder')}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label>
          {t('status.custom.clearAfter')}
          <select value={clear} onChange={(e) => setClear(e.target.value)}>
            {CLEAR_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {t(c.label)}
              </option>
            ))}
          </select>
        </label>
        <ErrorLine error={error} />
        <FormActions onCancel={props.onClose} submit={t('status.custom.save')} disabled={busy} />
      </form>
    </Dialog>
  );
}
