import { useTranslation } from 'react-i18next';
import type { CallParticipant } from '@im/protocol';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Icon } from '../common/Icon.tsx';

/** Who is in a voice panel's call, under the panel in the sidebar. */
export function CallRoster(props: { panelName: string; participants: readonly CallParticipant[] | undefined }) {
  const { t } = useTranslation();
  const users = useStore((s) => s.users);
  if (!props.participants?.length) return null;
  return (
    <ul className="call-roster" aria-label={t('calls.roster', { panel: props.panelName })} data-testid="call-roster">
      {props.participants.map((p) => (
        <li key={p.userId} data-testid="call-roster-person">
          <Avatar user={users[p.userId]} size={20} />
          <span className="call-roster-name" data-testid="call-roster-name">
            {displayName(users[p.userId], '…')}
          </span>
          {p.video && (
            <span title={t('calls.camera.on.short')}>
              <Icon name="camera" size={14} />
              <span className="visually-hidden"> {t('calls.roster.camera')}</span>
            </span>
          )}
          {p.screen && (
            <span title={t('calls.sharing')}>
              <Icon name="screen" size={14} />
              <span className="visually-hidden"> {t('calls.roster.sharing')}</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
