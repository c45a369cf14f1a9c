import { useTranslation } from 'react-i18next';
import type { Ban } from '@im/protocol';
import { listBans, unbanUser } from '../../../state/moderation.ts';
import { useStore } from '../../../state/store.ts';
import { displayName, ensureUsers } from '../../../state/users.ts';
import { formatMoment } from '../../messages/format.ts';
import { useLoaded } from '../../moderation/useLoaded.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';

/** Who is banned, why, by whom and when; each can be unbanned. */
export function BansTab(props: { groupId: string }) {
  const { t } = useTranslation();
  const { groupId } = props;
  const bans = useLoaded(groupId, async () => {
    const list = await listBans(groupId);
    ensureUsers(list.map((b) => b.bannedBy));
    return list;
  });
  if (bans.error && !bans.data) return <ErrorLine error={bans.error} />;
  if (!bans.data) return <p className="hint">{t('groups.bans.loading')}</p>;
  if (bans.data.length === 0) return <p className="hint">{t('groups.bans.none')}</p>;
  return (
    <ul className="mod-list" aria-label={t('groups.bans')}>
      {bans.data.map((ban) => (
        <BanRow
          key={ban.user.id}
          groupId={groupId}
          ban={ban}
          onUnbanned={() => bans.update((list) => list.filter((b) => b.user.id !== ban.user.id))}
        />
      ))}
    </ul>
  );
}

function BanRow(props: { groupId: string; ban: Ban; onUnbanned: () => void }) {
  const { t } = useTranslation();
  const { ban } = props;
  const by = useStore((s) => s.users[ban.bannedBy]);
  const { busy, error, run } = useAction();
  const name = displayName(ban.user);
  const unban = () =>
    run(async () => {
      await unbanUser(props.groupId, ban.user.id);
      props.onUnbanned();
    });
  return (
    <li className="mod-item" data-testid="ban-row" aria-label={name}>
      <p className="mod-line">
        <strong>{name}</strong> <span className="hint">@{ban.user.username}</span>
      </p>
      <p className="mod-line hint">
        {t('groups.bans.by', { name: displayName(by, t('groups.someone')) })} ·{' '}
        <time dateTime={ban.bannedAt}>{formatMoment(ban.bannedAt)}</time> ·{' '}
        {ban.reason ? ban.reason : t('groups.bans.noReason')}
      </p>
      <ErrorLine error={error} />
      <div className="mod-actions">
        <button type="button" disabled={busy} onClick={() => void unban()}>
          {t('groups.bans.unban')}
        </button>
      </div>
    </li>
  );
}
