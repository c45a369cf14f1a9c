import { useTranslation } from 'react-i18next';
import type { Panel } from '@im/protocol';
import { joinCall, loadCallState, useCalls } from '../../state/calls.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Icon } from '../common/Icon.tsx';
import { useEffect } from 'react';
import { CallStage } from './CallStage.tsx';

/** A voice panel's main view: the tiles of its call when I am in it, else who is in it and Join. */
export function VoicePanelView(props: { groupId: string; panel: Panel }) {
  const { t } = useTranslation();
  const { panel } = props;
  const mine = useCalls((s) => s.mine);
  const roster = useCalls((s) => s.rosters[panel.converseId]);
  const users = useStore((s) => s.users);
  useEffect(() => void loadCallState(panel.converseId), [panel.converseId]);
  const here = mine?.converseId === panel.converseId && (mine.phase === 'live' || mine.phase === 'connecting');
  if (here && mine.phase === 'live') return <CallStage />;
  return (
    <section className="voice-lobby" aria-label={panel.name} data-testid="voice-lobby">
      <Icon name="speaker" size={48} />
      <h2>{panel.name}</h2>
      {roster?.length ? (
        <ul className="voice-lobby-people">
          {roster.map((p) => (
            <li key={p.userId}>
              <Avatar user={users[p.userId]} size={40} />
              <span>{displayName(users[p.userId], '…')}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">{t('calls.lobby.empty')}</p>
      )}
      <button
        type="button"
        className="primary"
        disabled={here}
        onClick={() =>
          void joinCall({ converseId: panel.converseId, kind: 'panel', groupId: props.groupId, name: `#${panel.name}` })
        }
      >
        {here ? t('explore.joining') : t('calls.lobby.join')}
      </button>
    </section>
  );
}
