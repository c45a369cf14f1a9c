import type { Group, OutgoingWebhook, OutgoingWebhookWithSecret } from '@im/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteOutgoingHook,
  listOutgoingHooks,
  renewOutgoingSecret,
  withoutSecret,
} from '../../../../state/integrations.ts';
import { useLoaded } from '../../../moderation/useLoaded.ts';
import { LoadedList } from '../LoadedList.tsx';
import { CreateOutgoingForm } from './CreateOutgoingForm.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { HookDisabledNotice } from './HookDisabledNotice.tsx';
import { IntegrationSection } from './IntegrationSection.tsx';
import { panelLabel } from './PanelSelect.tsx';
import { RowActions } from './RowActions.tsx';
import { SuspendedNote } from './SuspendedNote.tsx';
import { useShownOnce } from './useShownOnce.tsx';

/**
 * Outgoing webhooks: the group's new messages (or one panel's, or those
 * starting with a trigger word) POSTed, signed with a secret, to an address.
 * Each has its delivery log.
 */
export function OutgoingHooksSection(props: { group: Group }) {
  const { group } = props;
  const { t } = useTranslation();
  const hooks = useLoaded(group.id, () => listOutgoingHooks(group.id));
  const made = useShownOnce('outgoing-secret', (m: OutgoingWebhookWithSecret) => ({
    label: t('integrations.outgoing.secret', { name: m.name || m.url }),
    value: m.secret,
    id: m.id,
  }));
  return (
    <IntegrationSection title={t('integrations.outgoing.title')} heading="h4">
      <CreateOutgoingForm
        group={group}
        onCreated={(hook) => {
          made.show(hook);
          hooks.update((list) => [withoutSecret(hook), ...list.filter((h) => h.id !== hook.id)]);
        }}
      />
      {made.view}
      <LoadedList loaded={hooks} label={t('integrations.outgoing.title')} keyOf={(h) => h.id} onRemoved={made.forget}>
        {(hook, removed) => (
          <OutgoingRow
            group={group}
            hook={hook}
            onDeleted={removed}
            onChanged={(next) => hooks.update((list) => list.map((h) => (h.id === next.id ? next : h)))}
          />
        )}
      </LoadedList>
    </IntegrationSection>
  );
}

function OutgoingRow(props: {
  group: Group;
  hook: OutgoingWebhook;
  onDeleted: () => void;
  onChanged: (hook: OutgoingWebhook) => void;
}) {
  const { group, hook } = props;
  const { t } = useTranslation();
  const name = hook.name || hook.url;
  const logId = useId();
  const [showLog, setShowLog] = useState(false);
  const [suspended, setSuspended] = useState(hook.suspended);
  const secret = useShownOnce('outgoing-secret', (value: string) => ({
    label: t('integrations.outgoing.newSecretFor', { name }),
    value,
  }));
  return (
    <li className="mod-item" data-testid="outgoing-row" data-disabled={hook.disabled} aria-label={name}>
      <p className="mod-line">
        <strong>{name}</strong>
        {hook.disabled && <span className="state-tag off">{t('integrations.outgoing.disabledTag')}</span>}
        {hook.name && <span className="hint">{hook.url}</span>}
      </p>
      <p className="mod-line hint">
        {panelLabel(group.panels, hook.panelId)} ·{' '}
        {hook.triggerWords.length > 0
          ? t('integrations.outgoing.startingWith', { words: hook.triggerWords.join(', ') })
          : t('integrations.outgoing.everyMessage')}
      </p>
      <SuspendedNote suspended={suspended} />
      <HookDisabledNotice groupId={group.id} hook={hook} onChanged={props.onChanged} />
      {secret.view}
      <RowActions
        renewLabel={t('integrations.newSecret')}
        renew={{
          question: t('integrations.outgoing.renewQuestion', { name }),
          run: async () => {
            const renewed = await renewOutgoingSecret(group.id, hook.id);
            setSuspended(renewed.suspended);
            secret.show(renewed.secret);
          },
        }}
        remove={{
          question: t('integrations.outgoing.deleteQuestion', { name }),
          run: () => deleteOutgoingHook(group.id, hook.id),
        }}
        onDeleted={props.onDeleted}
      >
        <button type="button" aria-expanded={showLog} aria-controls={logId} onClick={() => setShowLog(!showLog)}>
          {t('integrations.outgoing.deliveries')}
        </button>
      </RowActions>
      <div id={logId}>{showLog && <DeliveryLog groupId={group.id} hook={hook} />}</div>
    </li>
  );
}
