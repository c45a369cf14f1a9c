import { GROUP_LANGUAGES, type Group, type GroupLanguage, type GroupVisibility } from '@im/protocol';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../../i18n/languages.ts';
import type { MessageKey } from '../../../i18n/locales/en/index.ts';
import { MAX_GROUP_DESCRIPTION, updateGroupProfile, type GroupProfilePatch } from '../../../state/groups.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { StatusLine } from '../../common/StatusLine.tsx';
import { useAction } from '../../common/useAction.ts';

const CHOICES: Array<{ value: GroupVisibility; label: MessageKey; hint: MessageKey }> = [
  { value: 'private', label: 'groups.visibility.private', hint: 'groups.visibility.private.hint' },
  { value: 'public', label: 'groups.visibility.public', hint: 'groups.visibility.public.hint' },
];

/** Each language by its own name (a reader picks the one they can read). */
const languageName = (code: GroupLanguage) => LANGUAGES.find((l) => l.code === code)!;

/** What to send: only the fields that changed (the description trimmed; empty clears it). */
export function profilePatch(
  group: Group,
  visibility: GroupVisibility,
  description: string,
  language: GroupLanguage = group.language,
): GroupProfilePatch {
  const text = description.trim();
  return {
    ...(visibility !== group.visibility ? { visibility } : {}),
    ...(text !== (group.description ?? '') ? { description: text } : {}),
    ...(language !== group.language ? { language } : {}),
  };
}

/**
 * Who can find and join the group (private or public, listed in Explore),
 * its description, and (owner and admins) the language its public pages
 * and feeds are written in.
 */
export function VisibilityTab(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const descriptionHint = useId();
  const languageHint = useId();
  // Drafts: null follows the group as it is (also when another admin changes it).
  const [visibility, setVisibility] = useState<GroupVisibility | null>(null);
  const [description, setDescription] = useState<string | null>(null);
  const [language, setLanguage] = useState<GroupLanguage | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const chosen = visibility ?? group.visibility;
  const text = description ?? group.description ?? '';
  const spoken = language ?? group.language;
  const patch = profilePatch(group, chosen, text, spoken);
  const changed = Object.keys(patch).length > 0;
  const webPublic = group.panels.filter((p) => p.webPublic).length;
  const mayChooseLanguage = group.myRole === 'owner' || group.myRole === 'admin';
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    setSaved(null);
    const done = await run(() => updateGroupProfile(group.id, patch));
    if (!done) return;
    setVisibility(null);
    setDescription(null);
    setLanguage(null);
    setSaved(t('groups.saved'));
  };
  return (
    <form className="form" onSubmit={(e) => void save(e)}>
      <fieldset className="choices">
        <legend>{t('groups.visibility.legend', { group: group.name })}</legend>
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
              {t(c.label)} <span className="hint">{t(c.hint)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {group.visibility === 'public' && chosen === 'private' && webPublic > 0 && (
        <p className="warning" data-testid="private-warning">
          {t('groups.visibility.privateWarning', { count: webPublic })}
        </p>
      )}
      <label>
        {t('groups.description')}
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
        {t('groups.description.hint', { count: text.length, max: MAX_GROUP_DESCRIPTION })}
      </p>
      {mayChooseLanguage && (
        <>
          <label>
            {t('groups.language')}
            <select
              value={spoken}
              aria-describedby={languageHint}
              onChange={(e) => {
                setLanguage(e.target.value as GroupLanguage);
                setSaved(null);
              }}
            >
              {GROUP_LANGUAGES.map((code) => (
                <option key={code} value={code} lang={languageName(code).htmlLang}>
                  {languageName(code).name}
                </option>
              ))}
            </select>
          </label>
          <p className="hint" id={languageHint}>
            {t('groups.language.hint')}
          </p>
        </>
      )}
      <ErrorLine error={error} />
      <StatusLine message={saved} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy || !changed}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
