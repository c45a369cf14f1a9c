import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog.tsx';
import { useConfirmation } from './confirm.ts';

/**
 * A yes/no question in a dialog: focus starts on Cancel (the safe choice),
 * Escape and a click outside cancel.
 */
export function ConfirmDialog(props: {
  message: string;
  confirm: string;
  danger?: boolean;
  onAnswer: (yes: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('shell.confirm.title')} onClose={() => props.onAnswer(false)} role="alertdialog">
      <div className="form" data-testid="confirm-dialog">
        <p>{props.message}</p>
        <div className="form-actions">
          <button type="button" data-autofocus onClick={() => props.onAnswer(false)}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={props.danger === false ? 'primary' : 'danger'}
            onClick={() => props.onAnswer(true)}
          >
            {props.confirm}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** Shows the question confirmAction() asked, if any (mounted once in the signed-in app). */
export function ConfirmHost() {
  const pending = useConfirmation((s) => s.pending);
  if (!pending) return null;
  return (
    <ConfirmDialog
      message={pending.message}
      confirm={pending.confirm}
      danger={pending.danger}
      onAnswer={pending.answer}
    />
  );
}
