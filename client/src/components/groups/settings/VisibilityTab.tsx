import type { Group, GroupVisibility } from '@im/protocol';
import { useId, useState, type FormEvent } from 'react';
import { MAX_GROUP_DESCRIPTION, updateGroupProfile, type GroupProfilePatch } from '../../../state/groups.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { StatusLine } from '../../common/StatusLine.tsx';
import { useAction } from '../../common/useAction.ts';

const CHOICES: Array<{ value: GroupVisibility; label: string; hint: string }> = [
  { value: 'private', label: 'Private', hint: 'Only people with an invite can join.' },
  {
    value: 'public',
    label: 'Public',
    hint: 'Listed in Explore, where anyone signed in can find it and join without an invite. Its panels can be made readable on the web.',
  },
];

/** What to send: only the fields that changed (the description trimmed; empty clears it). */
export function profilePatch(group: Group, visibility: GroupVisibility, description: string): GroupProfilePatch {
  const text = description.trim();
  return {
    ...(visibility !== group.visibility ? { visibility } : {}),
    ...(text !== (group.description ?? '') ? { description: text } : {}),
  };
}

/** Who can find and join the group (private or public, listed in Explore), and its description. */
export function VisibilityTab(props: { group: Group }) {
  const { group } = props;
  const descriptionHint = useId();
  // Drafts: null follows the group as it is (also when another admin changes it).
  const [visibility, setVisibility] = useState<GroupVisibility | null>(null);
  const [description, setDescription] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const chosen = visibility ?? group.visibility;
  const text = description ?? group.description ?? '';
  const patch = profilePatch(group, chosen, text);
  const changed = Object.keys(patch).length > 0;
  const webPublic = group.panels.filter((p) => p.webPublic).length;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    setSaved(null);
    const done = await run(() => updateGroupProfile(group.id, patch));
    if (!done) return;
    setVisibility(null);
    setDescription(null);
    setSaved('Saved.');
  };
  return (
    <form className="form" onSubmit={(e) => void save(e)}>
      <fieldset className="choices">
        <legend>Who can find and join {group.name}</legend>
        {CHOICES.map((c) => (
          <label key={c.value} className="check">
            <input
              type="radio"
              name="visibility"
              value={c.value}
              checked={chosen === c.value}
              onChange={() => {
                setVisibility(c.value);
                setSaved(null);
              }}
            />
            <span>
              {c.label} <span className="hint">{c.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {group.visibility === 'public' && chosen === 'private' && webPublic > 0 && (
        <p className="warning" data-testid="private-warning">
          Making the group private also takes its{' '}
          {webPublic === 1 ? 'web-public panel' : `${webPublic} web-public panels`} off the web: their pages and feeds
          stop working at once.
        </p>
      )}
      <label>
        Description
        <textarea
          value={text}
          rows={3}
          maxLength={MAX_GROUP_DESCRIPTION}
          aria-describedby={descriptionHint}
          onChange={(e) => {
            setDescription(e.target.value);
            setSaved(null);
          }}
        />
      </label>
      <p className="hint" id={descriptionHint}>
        Shown in Explore and on web-public pages. {text.length}/{MAX_GROUP_DESCRIPTION} characters.
      </p>
      <ErrorLine error={error} />
      <StatusLine message={saved} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !changed}>
          Save
        </button>
      </div>
    </form>
  );
}
