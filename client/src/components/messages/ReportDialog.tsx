import type { Message, PublicUser } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { reportMessage } from '../../state/moderation.ts';
import { notify } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Dialog } from '../common/Dialog.tsx';

export const MAX_REPORT_REASON = 500;
export const ALREADY_REPORTED = 'You already reported this message';

/** Why a report failed, as the reporter should read it. */
export function reportFailure(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 409) return ALREADY_REPORTED;
  return describeError(err);
}

/** Asks why a message is reported and sends it to the moderators. */
export function ReportDialog(props: { message: Message; author?: PublicUser; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await reportMessage(props.message.id, reason.trim());
      notify('Thanks: the message was reported to the moderators.', 'info');
      props.onClose();
    } catch (err) {
      setError(reportFailure(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Report message" onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <blockquote className="snapshot">
          <strong>{displayName(props.author)}</strong>: {props.message.content.slice(0, 300)}
        </blockquote>
        <label>
          Reason
          <textarea
            value={reason}
            maxLength={MAX_REPORT_REASON}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || !reason.trim()}>
            Report
          </button>
        </div>
      </form>
    </Dialog>
  );
}
