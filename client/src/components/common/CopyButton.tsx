import { useTranslation } from 'react-i18next';
import { useEffect, useId, useState } from 'react';

/** How long the button says "Copied" before it offers to copy again. */
export const COPIED_SHOWN_MS = 2500;

/** The last copy attempt, and of which text (a changed text has not been copied yet). */
interface Attempt {
  outcome: 'copied' | 'failed';
  text: string;
}

/**
 * Copies `text` to the clipboard and says so on the button ("Copied") for a
 * moment. `what` completes its accessible name ("Copy public link") when
 * several sit side by side. Without a clipboard (an insecure origin, a
 * refusal) it says to copy by hand.
 */
export function CopyButton(props: { text: string; what?: string; label?: string; className?: string }) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const outcome = attempt?.text === props.text ? attempt.outcome : null;
  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setAttempt(null), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [outcome, attempt]);
  const copy = async () => {
    const text = props.text;
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setAttempt({ outcome: 'copied', text });
    } catch {
      setAttempt({ outcome: 'failed', text });
    }
  };
  return (
    <>
      <button type="button" className={props.className} onClick={() => void copy()} data-state={outcome ?? 'idle'}>
        {outcome === 'copied' ? t('copy.copied') : (props.label ?? t('copy.copy'))}
        {props.what && (
          <>
            {' '}
            <span className="visually-hidden">{props.what}</span>
          </>
        )}
      </button>
      <span role="status" className={outcome === 'failed' ? 'hint' : 'visually-hidden'}>
        {outcome === 'copied' && t('copy.done')}
        {outcome === 'failed' && t('copy.failed')}
      </span>
    </>
  );
}

/** A read-only address with its label and a copy button; focusing the field selects it. */
export function CopyField(props: { label: string; value: string; testId?: string }) {
  const id = useId();
  return (
    <div className="copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={props.value} data-testid={props.testId} onFocus={(e) => e.target.select()} />
        <CopyButton text={props.value} what={props.label.toLowerCase()} />
      </div>
    </div>
  );
}
