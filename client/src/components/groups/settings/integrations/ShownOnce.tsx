import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../../common/CopyButton.tsx';

/**
 * Something just made that the server keeps no readable copy of (a token, a
 * secret, a hook's address): this is the only time it can be seen. Done hides it.
 * `ifLost` is the sentence that says what to do if it is lost.
 */
export function ShownOnceBox(props: { label: string; ifLost: string; onDone: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const warning = useId();
  return (
    <div
      className="shown-once"
      role="group"
      aria-label={t('integrations.shownOnce.group', { label: props.label })}
      aria-describedby={warning}
    >
      {props.children}
      <p className="warning" id={warning}>
        {t('integrations.shownOnce.warning')} {props.ifLost}
      </p>
      <div className="form-actions">
        <button type="button" onClick={props.onDone}>
          {t('integrations.shownOnce.done')}
        </button>
      </div>
    </div>
  );
}

/** A token or secret just made, with its copy button. */
export function ShownOnce(props: { label: string; value: string; testId: string; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceBox label={props.label} ifLost={t('integrations.shownOnce.lostSecret')} onDone={props.onDone}>
      <CopyField label={props.label} value={props.value} testId={props.testId} />
    </ShownOnceBox>
  );
}
