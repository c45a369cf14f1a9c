import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorLine } from '../../../common/ErrorLine.tsx';
import { useAction } from '../../../common/useAction.ts';
import { whenConfirmed, type ConfirmRequest } from '../../../common/confirm.ts';

/** A row's action that runs only once `question` is confirmed. */
export interface Confirmed {
  question: string;
  run: () => Promise<unknown>;
}

/**
 * An integration row's failure and buttons: any of its own (`children`),
 * then a new token or secret, then Delete (`onDeleted` after the server has).
 */
export function RowActions(props: {
  renewLabel: string;
  renew: Confirmed;
  remove: Confirmed;
  onDeleted: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { busy, error, run } = useAction();
  const ask = (question: string, button: ConfirmRequest['confirm'], task: () => Promise<unknown>) => {
    whenConfirmed({ text: question, confirm: button }, () => run(task));
  };
  const { renew, remove } = props;
  return (
    <>
      <ErrorLine error={error} />
      <div className="mod-actions">
        {props.children}
        <button
          type="button"
          disabled={busy}
          onClick={() => ask(renew.question, { text: props.renewLabel }, renew.run)}
        >
          {props.renewLabel}
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            ask(remove.question, 'common.delete', async () => {
              await remove.run();
              props.onDeleted();
            })
          }
        >
          {t('common.delete')}
        </button>
      </div>
    </>
  );
}
