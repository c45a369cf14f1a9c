import './forwarding.css';
import type { ForwardedFrom as Origin } from '@im/protocol';
import { jumpToMessage } from '../../state/catch-up.ts';
import { fetchMessage } from '../../state/conversations.ts';
import { navigate } from '../../state/navigation.ts';
import { placeOf } from '../../state/search.ts';
import { useStore } from '../../state/store.ts';
import { displayName, ensureUsers } from '../../state/users.ts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoment } from './format.ts';

/**
 * "Forwarded from #panel · group, author, time" above a forwarded message.
 * Where it came from is named, with a link back, only when I can read it
 * (a panel or DM I have): otherwise the card says only who wrote it and when.
 */
export function ForwardedFrom(props: { origin: Origin }) {
  const { origin } = props;
  const { t } = useTranslation();
  const groups = useStore((s) => s.groups);
  const dms = useStore((s) => s.dms);
  const users = useStore((s) => s.users);
  const me = useStore((s) => s.me);
  // The original's author may share nothing else with me: their name is asked for once.
  useEffect(() => ensureUsers([origin.authorId]), [origin.authorId]);
  const place = placeOf(origin.converseId, { groups, dms, users, me });
  const readable = place.route.name !== 'converse';
  const author = displayName(users[origin.authorId]);
  const open = async () => {
    const original = await fetchMessage(origin.messageId);
    if (!original) return;
    void jumpToMessage(original.converseId, original.seq);
    navigate(place.route);
  };
  return (
    <div className="forwarded-from" data-testid="forwarded-from">
      {readable ? t('timeline.forwarded.from', { place: place.label, author }) : t('timeline.forwarded.by', { author })}{' '}
      ·{' '}
      <time dateTime={origin.createdAt} title={t('timeline.time.full', { at: new Date(origin.createdAt) })}>
        {formatMoment(origin.createdAt)}
      </time>
      {readable && (
        <>
          {' '}
          ·{' '}
          <button type="button" className="link" onClick={() => void open()}>
            {t('timeline.forwarded.open')}
          </button>
        </>
      )}
    </div>
  );
}
