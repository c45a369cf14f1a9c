import { t } from '../../i18n/i18n.ts';
import { accountStore } from '../../state/account-state.ts';
import type { MessageKey } from '../../i18n/locales/en/index.ts';

/**
 * What a confirmation asks: the question (a key with its arguments, or a text
 * translated already) and the button that goes ahead ("Delete" when not said).
 */
export type ConfirmRequest = ({ message: MessageKey; values?: Record<string, unknown> } | { text: string }) & {
  confirm?: MessageKey | { text: string };
  /** A destructive action: the button is red. True when not said. */
  danger?: boolean;
};

interface Pending {
  message: string;
  confirm: string;
  danger: boolean;
  answer: (yes: boolean) => void;
}

/** The one confirmation on screen (ConfirmHost shows it), or none; gone with the session. */
export const useConfirmation = accountStore<{ pending: Pending | null }>('confirmation', () => ({ pending: null }));

/**
 * Asks in an in-app dialog instead of the browser's `confirm()`: answers true
 * when the user goes ahead, false on Cancel, Escape or a click outside. A new
 * question while one is open answers the old one "no".
 */
export function confirmAction(request: ConfirmRequest): Promise<boolean> {
  useConfirmation.getState().pending?.answer(false);
  return new Promise((resolve) => {
    const answer = (yes: boolean) => {
      if (useConfirmation.getState().pending?.answer === answer) useConfirmation.setState({ pending: null });
      resolve(yes);
    };
    useConfirmation.setState({
      pending: {
        message: 'text' in request ? request.text : t(request.message, request.values ?? {}),
        confirm: typeof request.confirm === 'object' ? request.confirm.text : t(request.confirm ?? 'common.delete'),
        danger: request.danger ?? true,
        answer,
      },
    });
  });
}

/** Runs `action` once the user confirms `request` (a failure is the action's own to report). */
export function whenConfirmed(request: ConfirmRequest, action: () => unknown): void {
  void confirmAction(request).then((yes) => {
    if (yes) void action();
  });
}
