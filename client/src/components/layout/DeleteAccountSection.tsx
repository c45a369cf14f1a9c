import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { deleteMyAccount } from '../../state/session.ts';

/**
 * Settings: deleting my account. The password again (or, for an account
 * without one, my username typed out), then a confirmation; the app ends on
 * the sign-in screen, which says the account is gone.
 */
export function DeleteAccountSection(props: { username: string; hasPassword: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [proof, setProof] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = props.hasPassword ? proof.length > 0 : proof.trim().toLowerCase() === props.username.toLowerCase();
  const close = () => {
    setOpen(false);
    setConfirming(false);
    setProof('');
    setError(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) setConfirming(true);
  };
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteMyAccount(props.hasPassword ? proof : undefined);
    } catch (err) {
      setError(describeError(err));
      setConfirming(false);
      setBusy(false);
    }
  };
  return (
    <form className="form" data-testid="delete-account" onSubmit={submit} aria-labelledby={id}>
      <h3 id={id}>{t('account.delete.title')}</h3>
      <p className="hint">{t('account.delete.hint')}</p>
      {!open ? (
        <div className="form-actions">
          <button type="button" className="danger" onClick={() => setOpen(true)}>
            {t('account.delete.start')}
          </button>
        </div>
      ) : (
        <>
          <label>
            {props.hasPassword
              ? t('account.delete.password')
              : t('account.delete.typeUsername', { username: props.username })}
            <input
              type={props.hasPassword ? 'password' : 'text'}
              autoComplete={props.hasPassword ? 'current-password' : 'off'}
              value={proof}
              maxLength={128}
              onChange={(e) => {
                setProof(e.target.value);
                setConfirming(false);
              }}
              required
              autoFocus
            />
          </label>
          {confirming ? (
            <div role="alertdialog" aria-label={t('account.delete.confirmTitle')} className="confirm-delete">
              <p>{t('account.delete.confirm')}</p>
              <div className="form-actions">
                <button type="button" onClick={close} disabled={busy}>
                  {t('common.cancel')}
                </button>
                <button type="button" className="danger" onClick={() => void remove()} disabled={busy} autoFocus>
                  {t('account.delete.confirmButton')}
                </button>
              </div>
            </div>
          ) : (
            <div className="form-actions">
              <button type="button" onClick={close}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="danger" disabled={!ready}>
                {t('account.delete.continue')}
              </button>
            </div>
          )}
        </>
      )}
      {error && (
        <p className="hint" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
