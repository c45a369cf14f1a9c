import type { OutgoingWebhook } from '@im/protocol';
import { ErrorLine } from '../../../common/ErrorLine.tsx';
import { useAction } from '../../../common/useAction.ts';
import { formatMoment } from '../../../messages/format.ts';
import { api } from '../../../../api/api.ts';

/** PATCH the hook on or off; answers the hook as the server now has it. */
export const setOutgoingHookDisabled = (groupId: string, hookId: string, disabled: boolean) =>
  api.call('integration.updateOutgoing', { groupId, hookId, disabled });

/**
 * What an admin must see about an outgoing hook's health: a disabled hook
 * (its deliveries failed for 24 h, so nothing is sent to it) says so plainly,
 * with the button that turns it back on; a hook failing for now says since
 * when. A healthy hook shows nothing.
 */
export function HookDisabledNotice(props: {
  groupId: string;
  hook: OutgoingWebhook;
  onChanged: (hook: OutgoingWebhook) => void;
}) {
  const { hook } = props;
  const { busy, error, run } = useAction();
  if (!hook.disabled) {
    if (!hook.failingSince) return null;
    return (
      <p className="mod-line hint" data-testid="hook-failing">
        Deliveries failing since <time dateTime={hook.failingSince}>{formatMoment(hook.failingSince)}</time>: it is
        turned off after 24 hours of failures.
      </p>
    );
  }
  return (
    <div role="status" className="mod-line" data-testid="hook-disabled">
      <p>
        <span className="state-tag off">disabled</span> Nothing is sent to it. A hook is turned off after 24 hours of
        failed deliveries, or by an admin. Check the receiver, then turn it back on.
      </p>
      <ErrorLine error={error} />
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          void run(async () => props.onChanged(await setOutgoingHookDisabled(props.groupId, hook.id, false)))
        }
      >
        Turn back on <span className="visually-hidden">{hook.name || hook.url}</span>
      </button>
    </div>
  );
}
