import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, describeError } from '../../api/errors.ts';
import { joinPublicGroup } from '../../state/directory.ts';
import { ExploreButton } from './ExploreButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

function explain(err: unknown, t: TFunction): string {
  if (err instanceof ApiRequestError && err.status === 404) {
    return t('join.prompt.private');
  }
  return describeError(err);
}

/**
 * A link to a group I am not in (a web-public page's "Join the conversation"):
 * a public group can be joined from here; a private one needs an invite.
 */
export function JoinPrompt(props: { groupId: string; converseId?: string }) {
  const { t } = useTranslation();
  const { busy, error, run } = useAction();
  return (
    <div className="welcome" data-testid="join-prompt">
      <h1>{t('join.prompt.title')}</h1>
      <p>{t('join.prompt.hint')}</p>
      <ErrorLine error={error} />
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() =>
            void run(
              () => joinPublicGroup(props.groupId, props.converseId),
              (err) => explain(err, t),
            )
          }
        >
          {busy ? t('join.prompt.joining') : t('join.prompt.join')}
        </button>
        <ExploreButton />
      </div>
    </div>
  );
}
