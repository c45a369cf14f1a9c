import type { Bot, BotWithToken } from '@im/protocol';
import { Trans, useTranslation } from 'react-i18next';
import { createBot, deleteBot, listBots, renewBotToken } from '../../../../state/integrations.ts';
import { formatMoment } from '../../../messages/format.ts';
import { BotBadge } from '../../../messages/BotBadge.tsx';
import { useLoaded } from '../../../moderation/useLoaded.ts';
import { InlineForm } from '../InlineForm.tsx';
import { LoadedList } from '../LoadedList.tsx';
import { IntegrationSection } from './IntegrationSection.tsx';
import { NameField } from './NameField.tsx';
import { nameProblem } from './validation.ts';
import { RowActions } from './RowActions.tsx';
import { useCreateForm } from './useCreateForm.ts';
import { useShownOnce } from './useShownOnce.tsx';

/**
 * The group's bots: members that programs sign in as with a token. A new
 * bot's token is shown once; a new token replaces it. Bots made for a
 * webhook or command are listed too, but come and go with it.
 */
export function BotsSection(props: { groupId: string }) {
  const { groupId } = props;
  const { t } = useTranslation();
  const bots = useLoaded(groupId, () => listBots(groupId));
  const made = useShownOnce('bot-token', (m: BotWithToken) => ({
    label: t('integrations.bots.token', { name: m.bot.nickname || m.bot.username }),
    value: m.token,
    id: m.bot.id,
  }));
  return (
    <IntegrationSection title={t('integrations.bots.title')} heading="h3">
      <p className="hint">{t('integrations.bots.hint')}</p>
      <CreateBotForm
        groupId={groupId}
        onCreated={(result) => {
          made.show(result);
          bots.reload();
        }}
      />
      {made.view}
      <LoadedList loaded={bots} label={t('integrations.bots.title')} keyOf={(b) => b.id} onRemoved={made.forget}>
        {(bot, removed) => <BotRow groupId={groupId} bot={bot} onDeleted={removed} />}
      </LoadedList>
    </IntegrationSection>
  );
}

function CreateBotForm(props: { groupId: string; onCreated: (made: BotWithToken) => void }) {
  const { t } = useTranslation();
  const form = useCreateForm({ name: '' });
  const { name } = form.draft;
  const check = () => nameProblem(name, 'bot') ?? { name: name.trim() };
  return (
    <InlineForm
      label={t('integrations.bots.create')}
      submit={t('integrations.bots.createSubmit')}
      {...form.frame(check, (body) => createBot(props.groupId, body.name), props.onCreated)}
    >
      <div className="field-row">
        <NameField
          label={t('integrations.bots.name')}
          value={name}
          invalid={form.problem !== null}
          onChange={(value) => form.edit({ name: value })}
        />
      </div>
    </InlineForm>
  );
}

function BotRow(props: { groupId: string; bot: Bot; onDeleted: () => void }) {
  const { groupId, bot } = props;
  const { t } = useTranslation();
  const name = bot.nickname || bot.username;
  const token = useShownOnce('bot-token', (value: string) => ({
    label: t('integrations.bots.newToken', { name }),
    value,
  }));
  return (
    <li className="mod-item" data-testid="bot-row" aria-label={name}>
      <p className="mod-line">
        <strong>{name}</strong> <BotBadge /> <span className="hint">@{bot.username}</span>
      </p>
      <p className="mod-line hint">
        <Trans
          i18nKey="integrations.bots.created"
          values={{ date: formatMoment(bot.createdAt) }}
          components={{ when: <time dateTime={bot.createdAt} /> }}
        />
        {bot.managedBy && <> · {t('integrations.bots.managed', { kind: bot.managedBy.kind })}</>}
      </p>
      {token.view}
      {/* A managed bot's buttons are its webhook's or command's. */}
      {!bot.managedBy && (
        <RowActions
          renewLabel={t('integrations.bots.renew')}
          renew={{
            question: t('integrations.bots.renewQuestion', { name }),
            run: async () => token.show((await renewBotToken(groupId, bot.id)).token),
          }}
          remove={{
            question: t('integrations.bots.deleteQuestion', { name }),
            run: () => deleteBot(groupId, bot.id),
          }}
          onDeleted={props.onDeleted}
        />
      )}
    </li>
  );
}
