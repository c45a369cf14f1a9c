import { formatSize } from '../../messages/format.ts';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
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
    if (!NAME.test(name)) return setError(t('groups.emoji.name.rule'));
    if (!file) return setError(t('groups.emoji.image.missing'));
    if (file.size > MAX_BYTES) return setError(t('groups.emoji.image.limit', { size: formatSize(MAX_BYTES) }));
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
        <form className="emoji-upload" onSubmit={(e) => void submit(e)} aria-label={t('groups.emoji.add.label')}>
          <label>
            {t('groups.userGroups.name')}
            <input
              value={name}
              aria-label={t('groups.emoji.name')}
              placeholder={t('groups.emoji.name.placeholder')}
              maxLength={32}
              onChange={(e) => setName(e.target.value.toLowerCase())}
            />
          </label>
          <label>
            {t('groups.emoji.image')}
            <input
              key={inputKey}
              type="file"
              aria-label={t('groups.emoji.image.label')}
              accept="image/png,image/gif,image/jpeg,image/webp"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? t('groups.emoji.uploading') : t('groups.emoji.add')}
          </button>
          <ErrorLine error={error} />
        </form>
      )}
      {list.length === 0 ? (
        <p className="hint">{t('groups.emoji.none')}</p>
      ) : (
        <ul className="emoji-list" aria-label={t('groups.emoji')}>
          {list.map((emoji) => (
            <li key={emoji.name}>
              <CustomEmojiImage emoji={emoji} size="large" />
              <code>:{emoji.name}:</code>
              {admin && (
                <button
                  type="button"
                  className="link"
                  aria-label={t('groups.emoji.remove.label', { name: emoji.name })}
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
                  {t('groups.members.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
