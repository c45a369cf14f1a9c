import type { OutgoingWebhook } from '@im/protocol';
import { Trans, useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const { busy, error, run } = useAction();
  if (!hook.disabled) {
    if (!hook.failingSince) return null;
    return (
      <p className="mod-line hint" data-testid="hook-failing">
        <Trans
          i18nKey="integrations.outgoing.failing"
          values={{ date: formatMoment(hook.failingSince) }}
          components={{ when: <time dateTime={hook.failingSince} /> }}
        />
      </p>
    );
  }
  return (
    <div role="status" className="mod-line" data-testid="hook-disabled">
      <p>
        <span className="state-tag off">{t('integrations.outgoing.disabledTag')}</span>{' '}
        {t('integrations.outgoing.disabled')}
      </p>
      <ErrorLine error={error} />
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          void run(async () => props.onChanged(await setOutgoingHookDisabled(props.groupId, hook.id, false)))
        }
      >
        <Trans
          i18nKey="integrations.outgoing.turnOn"
          values={{ name: hook.name || hook.url }}
          components={{ hidden: <span className="visually-hidden" /> }}
        />
      </button>
    </div>
  );
}
