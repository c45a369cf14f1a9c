import { ApiRequestError, describeError } from '../../api/errors.ts';
import { joinPublicGroup } from '../../state/directory.ts';
import { ExploreButton } from './ExploreButton.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

function explain(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 404) {
    return 'This group is private or no longer exists: joining it takes an invite.';
  }
  return describeError(err);
}

/**
 * A link to a group I am not in (a web-public page's "Join the conversation"):
 * a public group can be joined from here; a private one needs an invite.
 */
export function JoinPrompt(props: { groupId: string; converseId?: string }) {
  const { busy, error, run } = useAction();
  return (
    <div className="welcome" data-testid="join-prompt">
      <h1>Join this group?</h1>
      <p>This group is not in your list. If it is public, anyone can join it.</p>
      <ErrorLine error={error} />
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void run(() => joinPublicGroup(props.groupId, props.converseId), explain)}
        >
          {busy ? 'Joining…' : 'Join the group'}
        </button>
        <ExploreButton />
      </div>
    </div>
  );
}
