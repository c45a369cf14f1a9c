import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors.ts';
import { StatusLine } from '../common/StatusLine.tsx';
import { api } from '../../api/api.ts';

/** Changing my password: every other session ends, this one stays. */
export function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api.call('user.changePassword', { currentPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setMessage('Password changed. Your other sessions were signed out.');
    } catch (err) {
      setMessage(describeError(err));
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)}>
      <h3>Change password</h3>
      <label>
        Current password
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
        New password
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
          Change password
        </button>
      </div>
      <StatusLine message={message} />
    </form>
  );
}
