import type { Group, IncomingWebhook } from '@im/protocol';
import { useState } from 'react';
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
import { SuspendedNote } from './SuspendedNote.tsx';
import { useCreateForm } from './useCreateForm.ts';
import { nameProblem } from './validation.ts';

/**
 * Incoming webhooks: an address that posts what other programs send into one
 * panel (Slack's `{"text": …}`). Whoever has the address can post, so a new
 * secret gives a new address and retires the old one.
 */
export function IncomingHooksSection(props: { group: Group }) {
  const { group } = props;
  const hooks = useLoaded(group.id, () => listIncomingHooks(group.id));
  const [made, setMade] = useState<string | null>(null);
  const replace = (hook: IncomingWebhook) => hooks.update((list) => [hook, ...list.filter((h) => h.id !== hook.id)]);
  return (
    <IntegrationSection title="Incoming webhooks" heading="h4">
      <CreateIncomingForm
        group={group}
        onCreated={(hook) => {
          setMade(hook.id);
          replace(hook);
        }}
      />
      <LoadedList loaded={hooks} label="Incoming webhooks" keyOf={(h) => h.id}>
        {(hook, removed) => (
          <IncomingRow
            group={group}
            hook={hook}
            justMade={hook.id === made}
            onRenewed={(renewed) => hooks.update((list) => list.map((h) => (h.id === renewed.id ? renewed : h)))}
            onDeleted={removed}
          />
        )}
      </LoadedList>
    </IntegrationSection>
  );
}

function CreateIncomingForm(props: { group: Group; onCreated: (hook: IncomingWebhook) => void }) {
  const { group } = props;
  // The panel chosen stays for the next webhook; only the name empties.
  const [panelId, setPanelId] = useState('');
  const form = useCreateForm({ name: '' });
  const { name } = form.draft;
  const chosen = group.panels.some((p) => p.id === panelId) ? panelId : (group.panels[0]?.id ?? '');
  return (
    <InlineForm
      label="Create an incoming webhook"
      submit="Create incoming webhook"
      {...form.frame(
        () =>
          (chosen ? nameProblem(name, 'webhook') : 'Create a panel for the webhook to post in first.') ?? {
            panelId: chosen,
            name: name.trim(),
          },
        (body) => createIncomingHook(group.id, body),
        props.onCreated,
      )}
    >
      <div className="field-row">
        <PanelSelect panels={group.panels} value={chosen} onChange={setPanelId} />
        <NameField
          label="Name"
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
  justMade: boolean;
  onRenewed: (hook: IncomingWebhook) => void;
  onDeleted: () => void;
}) {
  const { hook, group } = props;
  return (
    <li className="mod-item" data-testid="incoming-row" aria-label={hook.name}>
      <p className="mod-line">
        <strong>{hook.name}</strong>{' '}
        <span className="hint">
          posts in {panelLabel(group.panels, hook.panelId)} · created{' '}
          <time dateTime={hook.createdAt}>{formatMoment(hook.createdAt)}</time>
        </span>
      </p>
      <SuspendedNote suspended={hook.suspended} />
      <HookAddress key={hook.url} path={hook.url} open={props.justMade} />
      <RowActions
        renewLabel="New secret"
        renew={{
          question: `Give ${hook.name} a new address? The current one stops working at once.`,
          run: async () => props.onRenewed(await renewIncomingSecret(group.id, hook.id)),
        }}
        remove={{
          question: `Delete the incoming webhook ${hook.name}? Its address stops working at once.`,
          run: () => deleteIncomingHook(group.id, hook.id),
        }}
        onDeleted={props.onDeleted}
      />
    </li>
  );
}
