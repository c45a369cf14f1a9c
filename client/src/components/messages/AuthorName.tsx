import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@im/protocol';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { useMemberRoles } from '../groups/roles/useGroupRoles.ts';
import { useMenu } from '../common/useMenu.ts';
import { ProfileCard } from '../people/ProfileCard.tsx';
import { BotBadge } from './BotBadge.tsx';

/** The name a message is shown under: a webhook's chosen name, else the author's. */
export function shownName(author: PublicUser | undefined, username?: string): string {
  return username ?? displayName(author);
}

/**
 * Who a message is from, with a BOT badge for bots. An incoming webhook's
 * message shows the name it was posted under and "via" the hook's bot, so a
 * name cannot pass for a member's.
 */
export function AuthorName(props: { author?: PublicUser; username?: string }) {
  const { t } = useTranslation();
  const { author, username } = props;
  if (username !== undefined) {
    return (
      <>
        <span className="author">{username}</span> <BotBadge />{' '}
        <span className="via" data-testid="via">
          {t('posts.via', { name: displayName(author, t('posts.aBot')) })}
        </span>
      </>
    );
  }
  return (
    <>
      {author ? <AuthorButton author={author} /> : <span className="author">{displayName(author)}</span>}
      {author?.bot && (
        <>
          {' '}
          <BotBadge />
        </>
      )}
    </>
  );
}

/** The author's name (in the colour of their highest coloured role in the open group), opening their profile card. */
function AuthorButton(props: { author: PublicUser }) {
  const { open, setOpen, ref } = useMenu<HTMLSpanElement>();
  const groupId = useStore((s) => (s.route.name === 'group' ? s.route.groupId : undefined));
  const { color } = useMemberRoles(groupId, props.author.id);
  return (
    <span ref={ref} className="author-anchor">
      <button
        type="button"
        className="author link-like"
        aria-haspopup="dialog"
        aria-expanded={open}
        style={color ? { color } : undefined}
        onClick={() => setOpen(!open)}
      >
        {displayName(props.author)}
      </button>
      {open && <ProfileCard user={props.author} onClose={() => setOpen(false)} />}
    </span>
  );
}
