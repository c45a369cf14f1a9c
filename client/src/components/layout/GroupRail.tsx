import { useTranslation } from 'react-i18next';
import { heardBadge, isMuted, useAttention } from '../../state/attention.ts';
import { navigate } from '../../state/navigation.ts';
import { useStore } from '../../state/store.ts';
import { dmBadge, groupBadge } from '../../state/unread.ts';
import { Badge } from '../common/Badge.tsx';
import { Icon } from '../common/Icon.tsx';
import { GroupIcon } from '../groups/GroupIcon.tsx';

/** The groups I belong to, with their icons (else initials) and badges; home (DMs), create, join, and Explore (the public groups). */
export function GroupRail(props: { onCreate: () => void; onJoin: () => void }) {
  const { t } = useTranslation();
  const groups = useStore((s) => s.groups);
  const order = useStore((s) => s.groupOrder);
  const unread = useStore((s) => s.unread);
  const dms = useStore((s) => s.dmOrder);
  const levels = useAttention((s) => s.levels);
  const muted = (converseId: string) => isMuted(levels[converseId]);
  const route = useStore((s) => s.route);
  const activeGroup = route.name === 'group' ? route.groupId : null;
  const exploring = route.name === 'explore';
  const home = activeGroup === null && !exploring;
  const homeBadge = dms.reduce(
    (sum, id) => {
      const badge = heardBadge(dmBadge(unread[id]), muted(id));
      return { unread: sum.unread + badge.unread, mentions: sum.mentions + badge.mentions };
    },
    { unread: 0, mentions: 0 },
  );
  return (
    <nav className="rail" aria-label={t('shell.rail.groups')}>
      <button
        type="button"
        className={home ? 'rail-item home active' : 'rail-item home'}
        aria-label={t('shell.rail.dms')}
        aria-current={home ? 'page' : undefined}
        onClick={() => navigate({ name: 'home' })}
      >
        <Icon name="chat" size={24} />
        <Badge counts={homeBadge} testId="badge-home" />
      </button>
      <div className="rail-divider" />
      {order.map((id) => {
        const group = groups[id];
        if (!group) return null;
        return (
          <button
            key={id}
            type="button"
            className={activeGroup === id ? 'rail-item active' : 'rail-item'}
            aria-label={group.name}
            aria-current={activeGroup === id ? 'page' : undefined}
            title={group.name}
            data-testid="rail-group"
            onClick={() => navigate({ name: 'group', groupId: id, converseId: group.panels[0]?.converseId })}
          >
            <GroupIcon group={group} />
            <Badge counts={groupBadge(group, unread, muted)} testId="badge-group" />
          </button>
        );
      })}
      <button
        type="button"
        className="rail-item add"
        aria-label={t('shell.createGroup')}
        title={t('shell.createGroup')}
        onClick={props.onCreate}
      >
        <Icon name="plus" size={24} />
      </button>
      <button
        type="button"
        className="rail-item add"
        aria-label={t('join.dialogTitle')}
        title={t('join.dialogTitle')}
        onClick={props.onJoin}
      >
        <Icon name="join" size={22} />
      </button>
      <button
        type="button"
        className={exploring ? 'rail-item explore active' : 'rail-item explore'}
        aria-label={t('shell.rail.explore')}
        aria-current={exploring ? 'page' : undefined}
        title={t('shell.rail.explore')}
        onClick={() => navigate({ name: 'explore' })}
      >
        <Icon name="compass" size={24} />
      </button>
    </nav>
  );
}
