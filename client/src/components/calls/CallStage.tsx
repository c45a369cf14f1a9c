import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Icon } from '../common/Icon.tsx';
import type { Seat } from '../../state/call-room.ts';
import { TrackVideo, useSeats } from './media.tsx';

/** The people of my call as tiles: their video (or shared screen) when they send it, else their avatar and name. */
export function CallStage() {
  const { t } = useTranslation();
  const seats = useSeats();
  return (
    <ul className="call-stage" aria-label={t('calls.stage')} data-testid="call-stage">
      {seats.map((seat) => (
        <SeatTile key={seat.userId} seat={seat} />
      ))}
    </ul>
  );
}

function SeatTile(props: { seat: Seat }) {
  const { t } = useTranslation();
  const { seat } = props;
  const user = useStore((s) => s.users[seat.userId] ?? (s.me?.id === seat.userId ? s.me : undefined));
  const name = seat.local ? t('calls.you', { name: displayName(user) }) : displayName(user, '…');
  const video = seat.screen ?? seat.camera;
  return (
    <li
      className={`call-tile${seat.speaking ? ' speaking' : ''}`}
      data-testid="call-tile"
      data-user-id={seat.userId}
      data-speaking={seat.speaking}
      aria-label={t('calls.tile', {
        name,
        speaking: seat.speaking ? 'yes' : 'no',
        muted: seat.microphone ? 'no' : 'yes',
      })}
    >
      {video ? (
        <TrackVideo
          track={video}
          local={seat.local}
          label={seat.screen ? t('calls.tile.screen', { name }) : t('calls.tile.camera', { name })}
        />
      ) : (
        <Avatar user={user} size={72} />
      )}
      <span className="call-tile-name">
        {!seat.microphone && (
          <span title={t('calls.muted')} data-testid="tile-muted">
            <Icon name="micOff" size={14} />
          </span>
        )}
        {name}
      </span>
    </li>
  );
}
