import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { StatusLine } from '../common/StatusLine.tsx';
import { api } from '../../api/api.ts';

/** Changing my password: every other session ends, this one stays. */
export function PasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api.call('user.changePassword', { currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setMessage(t('account.password.changed'));
    } catch (err) {
      setMessage(describeError(err));
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)}>
      <h3>{t('account.password.title')}</h3>
      <label>
        {t('account.password.current')}
        <input
          type="password"
          autoComplete="current-password"
          value={current}
          maxLength={128}
          onChange={(e) => setCurrent(e.target.value)}
          required
        />
      </label>
      <label>
        {t('account.password.new')}
        <input
          type="password"
          autoComplete="new-password"
          value={next}
          minLength={8}
          maxLength={128}
          onChange={(e) => setNext(e.target.value)}
          required
        />
      </label>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!current || next.length < 8}>
          {t('account.password.submit')}
        </button>
      </div>
      <StatusLine message={message} />
    </form>
  );
}
