import { useTranslation } from 'react-i18next';
import type { EphemeralMessage, PublicUser } from '@im/protocol';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { AuthorName } from './AuthorName.tsx';
import { formatTime } from './format.ts';
import { RichText } from './RichText.tsx';

/**
 * A command's answer only I can see: greyed, said so, and dismissable. The
 * server keeps no copy, so it is gone on reload too.
 */
export function EphemeralItem(props: { ephemeral: EphemeralMessage; author?: PublicUser; onDismiss: () => void }) {
  const { t } = useTranslation();
  const { ephemeral, author } = props;
  return (
    <article
      className="message ephemeral"
      data-testid="ephemeral-message"
      aria-label={`${displayName(author)}, only you can see this: ${ephemeral.content}`}
    >
      <div className="gutter">
        <Avatar user={author} />
      </div>
      <div className="message-main">
        <div className="message-head">
          <AuthorName author={author} />
          <time dateTime={ephemeral.createdAt}>{formatTime(ephemeral.createdAt)}</time>
        </div>
        <div className="content" data-testid="ephemeral-content">
          <RichText text={ephemeral.content} />
        </div>
        <p className="ephemeral-note">
          {t('posts.ephemeral')} ·{' '}
          <button type="button" className="link" onClick={props.onDismiss}>
            {t('posts.ephemeral.dismiss')}
          </button>
        </p>
      </div>
    </article>
  );
}
