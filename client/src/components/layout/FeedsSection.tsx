import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t } from '../../i18n/i18n.ts';
import { issueFeedToken, personalFeedUrl } from '../../state/feeds.ts';
import { useStore, type AppState } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { CopyField } from '../common/CopyButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

export interface FeedChoice {
  converseId: string;
  label: string;
}

/** Every converse I can follow in a feed: my groups' panels, then my direct messages. */
export function feedChoices(s: Pick<AppState, 'groups' | 'groupOrder' | 'dms' | 'dmOrder' | 'users' | 'me'>) {
  const choices: FeedChoice[] = [];
  for (const id of s.groupOrder) {
    const group = s.groups[id];
    for (const panel of group?.panels ?? []) {
      choices.push({
        converseId: panel.converseId,
        label: t('account.feeds.panel', { group: group!.name, panel: panel.name }),
      });
    }
  }
  for (const id of s.dmOrder) {
    const dm = s.dms[id];
    if (!dm) continue;
    const other = dm.memberIds.find((m) => m !== s.me?.id) ?? s.me?.id;
    choices.push({
      converseId: dm.id,
      label: t('account.feeds.dm', { name: displayName(other ? s.users[other] : undefined) }),
    });
  }
  return choices;
}

/** The converse on screen, when there is one: the feed offered first. */
export function openConverseId(s: Pick<AppState, 'route' | 'groups'>): string | undefined {
  const route = s.route;
  if (route.name === 'dm' || route.name === 'converse') return route.converseId;
  if (route.name === 'group') return route.converseId ?? s.groups[route.groupId]?.panels[0]?.converseId;
  return undefined;
}

/**
 * Personal feeds: a secret link per converse for a feed reader. The token is
 * shown once when made (the server keeps no readable copy), so making a new
 * one is the only way to see a link again, and it revokes the previous one.
 */
export function FeedsSection() {
  const { t } = useTranslation();
  const selectId = useId();
  const token = useStore((s) => s.feedToken);
  const groups = useStore((s) => s.groups);
  const groupOrder = useStore((s) => s.groupOrder);
  const dms = useStore((s) => s.dms);
  const dmOrder = useStore((s) => s.dmOrder);
  const users = useStore((s) => s.users);
  const me = useStore((s) => s.me);
  const route = useStore((s) => s.route);
  const choices = feedChoices({ groups, groupOrder, dms, dmOrder, users, me });
  const open = openConverseId({ route, groups });
  const [picked, setPicked] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const selected =
    choices.find((c) => c.converseId === picked) ?? choices.find((c) => c.converseId === open) ?? choices[0];
  return (
    <section className="form" aria-labelledby={`${selectId}-title`} data-testid="feeds">
      <h3 id={`${selectId}-title`}>{t('account.feeds')}</h3>
      <p className="hint">{t('account.feeds.hint')}</p>
      <ErrorLine error={error} />
      <div className="form-actions">
        <button
          type="button"
          className={token ? undefined : 'primary'}
          disabled={busy}
          onClick={() => void run(issueFeedToken)}
        >
          {token ? t('account.feeds.replace') : t('account.feeds.create')}
        </button>
      </div>
      {token && choices.length === 0 && <p className="hint">{t('account.feeds.nothing')}</p>}
      {token && selected && (
        <>
          <label htmlFor={selectId}>{t('account.feeds.converse')}</label>
          <select id={selectId} value={selected.converseId} onChange={(e) => setPicked(e.target.value)}>
            {choices.map((c) => (
              <option key={c.converseId} value={c.converseId}>
                {c.converseId === open ? t('account.feeds.openNow', { label: c.label }) : c.label}
              </option>
            ))}
          </select>
          <CopyField
            label={t('account.feeds.link')}
            value={personalFeedUrl(token, selected.converseId)}
            testId="feed-url"
          />
        </>
      )}
    </section>
  );
}
