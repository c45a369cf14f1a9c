import type { SlashCommand, SlashCommandWithSecret } from '@im/protocol';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import {
  createCommand,
  deleteCommand,
  listCommands,
  renewCommandSecret,
  withoutSecret,
} from '../../../../state/integrations.ts';
import { useLoaded } from '../../../moderation/useLoaded.ts';
import { InlineForm } from '../InlineForm.tsx';
import { LoadedList } from '../LoadedList.tsx';
import { IntegrationSection } from './IntegrationSection.tsx';
import { RowActions } from './RowActions.tsx';
import { SuspendedNote } from './SuspendedNote.tsx';
import { UrlField } from './UrlField.tsx';
import { useCreateForm } from './useCreateForm.ts';
import { useShownOnce } from './useShownOnce.tsx';
import { bareTrigger, MAX_DESCRIPTION, MAX_TRIGGER, triggerProblem, urlProblem } from './validation.ts';

/**
 * Slash commands: `/trigger text` typed in any panel of the group is sent,
 * signed, to an address whose answer shows to the caller (or to everyone).
 * Members see them suggested in the composer.
 */
export function CommandsSection(props: { groupId: string }) {
  const { groupId } = props;
  const { t } = useTranslation();
  const commands = useLoaded(groupId, () => listCommands(groupId));
  const made = useShownOnce('command-secret', (m: SlashCommandWithSecret) => ({
    label: t('integrations.commands.secret', { trigger: m.trigger }),
    value: m.secret,
    id: m.id,
  }));
  return (
    <IntegrationSection title={t('integrations.commands.title')} heading="h3">
      <p className="hint">{t('integrations.commands.builtIn')}</p>
      <CreateCommandForm
        groupId={groupId}
        onCreated={(command) => {
          made.show(command);
          commands.update((list) => [...list.filter((c) => c.id !== command.id), withoutSecret(command)]);
        }}
      />
      {made.view}
      <LoadedList
        loaded={commands}
        label={t('integrations.commands.title')}
        keyOf={(c) => c.id}
        onRemoved={made.forget}
      >
        {(command, removed) => <CommandRow groupId={groupId} command={command} onDeleted={removed} />}
      </LoadedList>
    </IntegrationSection>
  );
}

interface CommandDraft {
  trigger: string;
  url: string;
  description: string;
}

const EMPTY: CommandDraft = { trigger: '', url: '', description: '' };

/** The body for a new command, or the first problem with the draft. */
export function commandBody(draft: CommandDraft): { trigger: string; url: string; description?: string } | string {
  const wrong = triggerProblem(draft.trigger) ?? urlProblem(draft.url);
  if (wrong) return wrong;
  const description = draft.description.trim();
  return { trigger: bareTrigger(draft.trigger), url: draft.url.trim(), ...(description ? { description } : {}) };
}

function CreateCommandForm(props: { groupId: string; onCreated: (command: SlashCommandWithSecret) => void }) {
  const { t } = useTranslation();
  const { draft, edit, frame } = useCreateForm(EMPTY);
  return (
    <InlineForm
      label={t('integrations.commands.create')}
      submit={t('integrations.commands.createSubmit')}
      {...frame(
        () => commandBody(draft),
        (body) => createCommand(props.groupId, body),
        props.onCreated,
      )}
    >
      <div className="field-row">
        <label>
          {t('integrations.commands.trigger')}
          {/* The slash before the field is drawn by CSS, so the label stays the bare word. */}
          <span className="trigger-input">
            <input
              value={draft.trigger}
              maxLength={MAX_TRIGGER + 1}
              placeholder={t('integrations.commands.triggerPlaceholder')}
              autoCapitalize="none"
              spellCheck={false}
              onChange={(e) => edit({ trigger: e.target.value })}
            />
          </span>
        </label>
        <UrlField
          placeholder={t('integrations.commands.urlPlaceholder')}
          value={draft.url}
          onChange={(url) => edit({ url })}
        />
      </div>
      <label>
        <Trans i18nKey="integrations.commands.description" components={{ hint: <span className="hint" /> }} />
        <input
          value={draft.description}
          maxLength={MAX_DESCRIPTION}
          onChange={(e) => edit({ description: e.target.value })}
        />
      </label>
    </InlineForm>
  );
}

function CommandRow(props: { groupId: string; command: SlashCommand; onDeleted: () => void }) {
  const { groupId, command } = props;
  const { t } = useTranslation();
  const [suspended, setSuspended] = useState(command.suspended);
  const secret = useShownOnce('command-secret', (value: string) => ({
    label: t('integrations.commands.newSecretFor', { trigger: command.trigger }),
    value,
  }));
  return (
    <li className="mod-item" data-testid="command-row" aria-label={`/${command.trigger}`}>
      <p className="mod-line">
        <strong>/{command.trigger}</strong>
        {command.description && <span className="hint">{command.description}</span>}
      </p>
      {command.url && <p className="mod-line hint">{t('integrations.commands.calls', { url: command.url })}</p>}
      <SuspendedNote suspended={suspended} />
      {secret.view}
      <RowActions
        renewLabel={t('integrations.newSecret')}
        renew={{
          question: t('integrations.commands.renewQuestion', { trigger: command.trigger }),
          run: async () => {
            const renewed = await renewCommandSecret(groupId, command.id);
            setSuspended(renewed.suspended);
            secret.show(renewed.secret);
          },
        }}
        remove={{
          question: t('integrations.commands.deleteQuestion', { trigger: command.trigger }),
          run: () => deleteCommand(groupId, command.id),
        }}
        onDeleted={props.onDeleted}
      />
    </li>
  );
}
