import { t } from '../../i18n/i18n.ts';
import { useTranslation } from 'react-i18next';
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
export const alreadyReported = () => t('posts.report.already');

/** Why a report failed, as the reporter should read it. */
export function reportFailure(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 409) return alreadyReported();
  return describeError(err);
}

/** Asks why a message is reported and sends it to the moderators. */
export function ReportDialog(props: { message: Message; author?: PublicUser; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    if (await run(() => reportMessage(props.message.id, reason.trim()), reportFailure)) {
      notify(t('posts.report.done'), 'info');
      props.onClose();
    }
  };
  return (
    <Dialog title={t('posts.report.title')} onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <blockquote className="snapshot">
          <strong>{displayName(props.author)}</strong>: {props.message.content.slice(0, 300)}
        </blockquote>
        <label>
          {t('groups.ban.reason')}
          <textarea
            value={reason}
            maxLength={MAX_REPORT_REASON}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            required
          />
        </label>
        <ErrorLine error={error} />
        <FormActions onCancel={props.onClose} submit={t('posts.report')} disabled={busy || !reason.trim()} />
      </form>
    </Dialog>
  );
}
