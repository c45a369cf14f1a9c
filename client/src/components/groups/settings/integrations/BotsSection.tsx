import type { Bot, BotWithToken } from '@im/protocol';
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

const MANAGED: Record<NonNullable<Bot['managedBy']>['kind'], string> = {
  incoming: 'an incoming webhook',
  outgoing: 'an outgoing webhook',
  command: 'a slash command',
};

/**
 * The group's bots: members that programs sign in as with a token. A new
 * bot's token is shown once; a new token replaces it. Bots made for a
 * webhook or command are listed too, but come and go with it.
 */
export function BotsSection(props: { groupId: string }) {
  const { groupId } = props;
  const bots = useLoaded(groupId, () => listBots(groupId));
  const made = useShownOnce('bot-token', (m: BotWithToken) => ({
    label: `Token for ${m.bot.nickname || m.bot.username}`,
    value: m.token,
    id: m.bot.id,
  }));
  return (
    <IntegrationSection title="Bots" heading="h3">
      <p className="hint">
        A bot is a member that a program signs in as, with a token instead of a password (only in this group).
      </p>
      <CreateBotForm
        groupId={groupId}
        onCreated={(result) => {
          made.show(result);
          bots.reload();
        }}
      />
      {made.view}
      <LoadedList loaded={bots} label="Bots" keyOf={(b) => b.id} onRemoved={made.forget}>
        {(bot, removed) => <BotRow groupId={groupId} bot={bot} onDeleted={removed} />}
      </LoadedList>
    </IntegrationSection>
  );
}

function CreateBotForm(props: { groupId: string; onCreated: (made: BotWithToken) => void }) {
  const form = useCreateForm({ name: '' });
  const { name } = form.draft;
  return (
    <InlineForm
      label="Create a bot"
      submit="Create bot"
      {...form.frame(
        () => nameProblem(name, 'bot') ?? { name: name.trim() },
        (body) => createBot(props.groupId, body.name),
        props.onCreated,
      )}
    >
      <div className="field-row">
        <NameField
          label="Bot name"
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
  const name = bot.nickname || bot.username;
  const token = useShownOnce('bot-token', (value: string) => ({ label: `New token for ${name}`, value }));
  return (
    <li className="mod-item" data-testid="bot-row" aria-label={name}>
      <p className="mod-line">
        <strong>{name}</strong> <BotBadge /> <span className="hint">@{bot.username}</span>
      </p>
      <p className="mod-line hint">
        Created <time dateTime={bot.createdAt}>{formatMoment(bot.createdAt)}</time>
        {bot.managedBy && ` · posts for ${MANAGED[bot.managedBy.kind]}, and goes when it is deleted`}
      </p>
      {token.view}
      {/* A managed bot's buttons are its webhook's or command's. */}
      {!bot.managedBy && (
        <RowActions
          renewLabel="New token"
          renew={{
            question: `Make a new token for ${name}? The current token stops working at once.`,
            run: async () => token.show((await renewBotToken(groupId, bot.id)).token),
          }}
          remove={{
            question: `Delete the bot ${name}? Its token stops working at once.`,
            run: () => deleteBot(groupId, bot.id),
          }}
          onDeleted={props.onDeleted}
        />
      )}
    </li>
  );
}
