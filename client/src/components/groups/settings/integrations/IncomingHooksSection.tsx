import type { Group, IncomingWebhook, IncomingWebhookWithUrl } from '@im/protocol';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import {
  createIncomingHook,
  deleteIncomingHook,
  listIncomingHooks,
  renewIncomingSecret,
} from '../../../../state/integrations.ts';
import { formatMoment } from '../../../messages/format.ts';
import { useLoaded } from '../../../moderation/useLoaded.ts';
import { InlineForm } from '../InlineForm.tsx';
import { LoadedList } from '../LoadedList.tsx';
import { HookAddress } from './HookAddress.tsx';
import { IntegrationSection } from './IntegrationSection.tsx';
import { NameField } from './NameField.tsx';
import { PanelSelect, panelLabel } from './PanelSelect.tsx';
import { RowActions } from './RowActions.tsx';
import { ShownOnceBox } from './ShownOnce.tsx';
import { SuspendedNote } from './SuspendedNote.tsx';
import { useCreateForm } from './useCreateForm.ts';
import { nameProblem } from './validation.ts';

/**
 * Incoming webhooks: an address that posts what other programs send into one
 * panel (Slack's `{"text": …}`). Whoever has the address can post, so it is
 * shown once, when made or renewed (the list never has it); a new secret
 * gives a new address and retires the old one.
 */
export function IncomingHooksSection(props: { group: Group }) {
  const { group } = props;
  const { t } = useTranslation();
  const hooks = useLoaded(group.id, () => listIncomingHooks(group.id));
  // The one hook whose address was just made, shown until Done.
  const [shown, setShown] = useState<{ id: string; url: string; justMade: boolean } | null>(null);
  const show = (hook: IncomingWebhookWithUrl, justMade: boolean) => setShown({ id: hook.id, url: hook.url, justMade });
  return (
    <IntegrationSection title={t('integrations.incoming.title')} heading="h4">
      <CreateIncomingForm
        group={group}
        onCreated={(hook) => {
          show(hook, true);
          hooks.update((list) => [withoutUrl(hook), ...list.filter((h) => h.id !== hook.id)]);
        }}
      />
      <LoadedList loaded={hooks} label={t('integrations.incoming.title')} keyOf={(h) => h.id}>
        {(hook, removed) => (
          <IncomingRow
            group={group}
            hook={hook}
            shown={shown?.id === hook.id ? shown : null}
            onDone={() => setShown(null)}
            onRenewed={(renewed) => {
              show(renewed, false);
              hooks.update((list) => list.map((h) => (h.id === renewed.id ? withoutUrl(renewed) : h)));
            }}
            onDeleted={removed}
          />
        )}
      </LoadedList>
    </IntegrationSection>
  );
}

function withoutUrl(hook: IncomingWebhookWithUrl): IncomingWebhook {
  const { url: _url, ...rest } = hook;
  return rest;
}

function CreateIncomingForm(props: { group: Group; onCreated: (hook: IncomingWebhookWithUrl) => void }) {
  const { group } = props;
  const { t } = useTranslation();
  // The panel chosen stays for the next webhook; only the name empties.
  const [panelId, setPanelId] = useState('');
  const form = useCreateForm({ name: '' });
  const { name } = form.draft;
  const chosen = group.panels.some((p) => p.id === panelId) ? panelId : (group.panels[0]?.id ?? '');
  const check = () =>
    (chosen ? nameProblem(name, 'webhook') : t('integrations.incoming.noPanel')) ?? {
      panelId: chosen,
      name: name.trim(),
    };
  return (
    <InlineForm
      label={t('integrations.incoming.create')}
      submit={t('integrations.incoming.createSubmit')}
      {...form.frame(check, (body) => createIncomingHook(group.id, body), props.onCreated)}
    >
      <div className="field-row">
        <PanelSelect panels={group.panels} value={chosen} onChange={setPanelId} />
        <NameField
          label={t('integrations.name')}
          value={name}
          invalid={form.problem !== null}
          onChange={(value) => form.edit({ name: value })}
        />
      </div>
    </InlineForm>
  );
}

function IncomingRow(props: {
  group: Group;
  hook: IncomingWebhook;
  shown: { url: string; justMade: boolean } | null;
  onDone: () => void;
  onRenewed: (hook: IncomingWebhookWithUrl) => void;
  onDeleted: () => void;
}) {
  const { hook, group, shown } = props;
  const { t } = useTranslation();
  return (
    <li className="mod-item" data-testid="incoming-row" aria-label={hook.name}>
      <p className="mod-line">
        <strong>{hook.name}</strong>{' '}
        <span className="hint">
          <Trans
            i18nKey="integrations.incoming.postsIn"
            values={{ panel: panelLabel(group.panels, hook.panelId), date: formatMoment(hook.createdAt) }}
            components={{ when: <time dateTime={hook.createdAt} /> }}
          />
        </span>
      </p>
      <SuspendedNote suspended={hook.suspended} />
      {shown ? (
        <ShownAddress key={shown.url} url={shown.url} open={shown.justMade} onDone={props.onDone} />
      ) : (
        <p className="mod-line hint" data-testid="address-hidden">
          {t('integrations.incoming.hidden')}
        </p>
      )}
      <RowActions
        renewLabel={t('integrations.newSecret')}
        renew={{
          question: t('integrations.incoming.renewQuestion', { name: hook.name }),
          run: async () => props.onRenewed(await renewIncomingSecret(group.id, hook.id)),
        }}
        remove={{
          question: t('integrations.incoming.deleteQuestion', { name: hook.name }),
          run: () => deleteIncomingHook(group.id, hook.id),
        }}
        onDeleted={props.onDeleted}
      />
    </li>
  );
}

/** The address just made, with its copy button and curl line: shown this once, until Done. */
function ShownAddress(props: { url: string; open: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceBox
      label={t('integrations.incoming.newAddress')}
      ifLost={t('integrations.shownOnce.lostAddress')}
      onDone={props.onDone}
    >
      <HookAddress path={props.url} open={props.open} />
    </ShownOnceBox>
  );
}
