import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';

/** A form's last row: Cancel, then the button that submits it. */
export function FormActions(props: {
  onCancel: () => void;
  submit: ReactNode;
  disabled?: boolean;
  kind?: 'primary' | 'danger';
}) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      <button type="button" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" className={props.kind ?? 'primary'} disabled={props.disabled}>
        {props.submit}
      </button>
    </div>
  );
}
