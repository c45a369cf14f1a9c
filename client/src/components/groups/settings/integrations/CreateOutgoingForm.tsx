import type { Group, OutgoingWebhookWithSecret } from '@im/protocol';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { createOutgoingHook, type OutgoingHookBody } from '../../../../state/integrations.ts';
import { InlineForm } from '../InlineForm.tsx';
import { NameField } from './NameField.tsx';
import { PanelSelect } from './PanelSelect.tsx';
import { UrlField } from './UrlField.tsx';
import { useCreateForm } from './useCreateForm.ts';
import { nameProblem, parseTriggerWords, triggerWordsProblem, urlProblem } from './validation.ts';

export interface OutgoingDraft {
  url: string;
  name: string;
  panelId: string;
  words: string;
}

/** The body for a new outgoing webhook, or the first problem with the draft. */
export function outgoingBody(draft: OutgoingDraft): OutgoingHookBody | string {
  const wrong =
    urlProblem(draft.url) ??
    (draft.name.trim() ? nameProblem(draft.name, 'webhook') : null) ??
    triggerWordsProblem(draft.words);
  if (wrong) return wrong;
  const words = parseTriggerWords(draft.words);
  return {
    url: draft.url.trim(),
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.panelId ? { panelId: draft.panelId } : {}),
    ...(words.length > 0 ? { triggerWords: words } : {}),
  };
}

const EMPTY: OutgoingDraft = { url: '', name: '', panelId: '', words: '' };

/** A new outgoing webhook: where to send, which panel's messages, and which words trigger it. */
export function CreateOutgoingForm(props: { group: Group; onCreated: (hook: OutgoingWebhookWithSecret) => void }) {
  const { group } = props;
  const { t } = useTranslation();
  const wordsHint = useId();
  const { draft, edit, frame } = useCreateForm(EMPTY);
  return (
    <InlineForm
      label={t('integrations.outgoing.create')}
      submit={t('integrations.outgoing.createSubmit')}
      // A refused address (a private one, say) comes back as the server's sentence, shown below.
      {...frame(
        () => outgoingBody(draft),
        (body) => createOutgoingHook(group.id, body),
        props.onCreated,
      )}
    >
      <UrlField
        placeholder={t('integrations.outgoing.urlPlaceholder')}
        value={draft.url}
        onChange={(url) => edit({ url })}
      />
      <div className="field-row">
        <NameField
          label={<Trans i18nKey="integrations.nameOptional" components={{ hint: <span className="hint" /> }} />}
          value={draft.name}
          onChange={(name) => edit({ name })}
        />
        <PanelSelect
          panels={group.panels}
          value={draft.panelId}
          allLabel={t('integrations.allPanels')}
          onChange={(panelId) => edit({ panelId })}
        />
      </div>
      <label>
        {t('integrations.outgoing.words')} <span className="hint">{t('integrations.outgoing.wordsHint')}</span>
        <input
          value={draft.words}
          placeholder={t('integrations.outgoing.wordsPlaceholder')}
          onChange={(e) => edit({ words: e.target.value })}
          aria-describedby={wordsHint}
        />
      </label>
      <p className="hint" id={wordsHint}>
        {t('integrations.outgoing.wordsExplained')}
      </p>
    </InlineForm>
  );
}
