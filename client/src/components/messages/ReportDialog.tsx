import type { Message, PublicUser } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { reportMessage } from '../../state/moderation.ts';
import { notify } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Dialog } from '../common/Dialog.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';
import { FormActions } from '../common/FormActions.tsx';

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
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    if (await run(() => reportMessage(props.message.id, reason.trim()), reportFailure)) {
      notify('Thanks: the message was reported to the moderators.', 'info');
      props.onClose();
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
        <ErrorLine error={error} />
        <FormActions onCancel={props.onClose} submit="Report" disabled={busy || !reason.trim()} />
      </form>
    </Dialog>
  );
}
