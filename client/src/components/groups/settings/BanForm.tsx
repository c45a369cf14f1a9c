import { useTranslation } from 'react-i18next';
import { useState, type FormEvent } from 'react';
import { FormActions } from '../../common/FormActions.tsx';

export const MAX_BAN_REASON = 500;

/** The reason for a ban (optional, kept in the ban list and the audit log), asked before banning. */
export function BanForm(props: {
  name: string;
  busy?: boolean;
  onBan: (reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onBan(reason.trim());
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={t('groups.ban.label', { name: props.name })}>
      <label>
        {t('groups.ban.reason')} <span className="hint">{t('auth.optional')}</span>
        <input value={reason} maxLength={MAX_BAN_REASON} onChange={(e) => setReason(e.target.value)} autoFocus />
      </label>
      <FormActions
        onCancel={props.onCancel}
        submit={t('groups.ban.label', { name: props.name })}
        disabled={props.busy}
        kind="danger"
      />
    </form>
  );
}
