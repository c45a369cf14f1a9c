import { CUSTOM_EMOJI_NAME_PATTERN, type Group } from '@im/protocol';
import { hasPermission } from '../../../state/permissions.ts';
import { useState, type FormEvent } from 'react';
import { loadCustomEmoji, removeCustomEmoji, uploadCustomEmoji, useGroupEmoji } from '../../../state/custom-emoji.ts';
import { CustomEmojiImage } from '../../emoji/CustomEmojiContext.tsx';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { whenConfirmed } from '../../common/confirm.ts';

const NAME = new RegExp(CUSTOM_EMOJI_NAME_PATTERN);
/** The server's limit, checked here first to save a refused upload. */
const MAX_BYTES = 256 * 1024;

/** A group's custom emoji: everyone sees them; holders of manageGroup (owner and admins) add and remove them. */
export function EmojiTab(props: { group: Group }) {
  const { group } = props;
  const list = useGroupEmoji(group.id);
  const admin = hasPermission(group, 'manageGroup');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [inputKey, setInputKey] = useState(0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!NAME.test(name)) return setError('Names are 2-32 of a-z, 0-9 and _');
    if (!file) return setError('Choose an image');
    if (file.size > MAX_BYTES) return setError('Images are limited to 256 KB');
    setBusy(true);
    try {
      await uploadCustomEmoji(group.id, name, file);
      setName('');
      setFile(null);
      setInputKey((k) => k + 1);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="emoji-tab">
      {admin && (
        <form className="emoji-upload" onSubmit={(e) => void submit(e)} aria-label="Add custom emoji">
          <label>
            Name
            <input
              value={name}
              aria-label="Emoji name"
              placeholder="party_parrot"
              maxLength={32}
              onChange={(e) => setName(e.target.value.toLowerCase())}
            />
          </label>
          <label>
            Image
            <input
              key={inputKey}
              type="file"
              aria-label="Emoji image"
              accept="image/png,image/gif,image/jpeg,image/webp"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Uploading…' : 'Add emoji'}
          </button>
          <ErrorLine error={error} />
        </form>
      )}
      {list.length === 0 ? (
        <p className="hint">This group has no custom emoji yet.</p>
      ) : (
        <ul className="emoji-list" aria-label="Custom emoji">
          {list.map((emoji) => (
            <li key={emoji.name}>
              <CustomEmojiImage emoji={emoji} size="large" />
              <code>:{emoji.name}:</code>
              {admin && (
                <button
                  type="button"
                  className="link"
                  aria-label={`Remove :${emoji.name}:`}
                  onClick={() => {
                    whenConfirmed(
                      {
                        message: 'shell.confirm.removeEmoji',
                        values: { name: emoji.name },
                        confirm: 'shell.confirm.remove',
                      },
                      () => removeCustomEmoji(group.id, emoji.name).catch(() => loadCustomEmoji(group.id, true)),
                    );
                  }}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
