import { useTranslation } from 'react-i18next';
import { MAX_PANEL_TOPIC } from '../../state/groups.ts';

/** A panel's name and topic, as it is made or changed. */
export function PanelNameFields(props: {
  name: string;
  onName: (name: string) => void;
  topic: string;
  onTopic: (topic: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label>
        {t('groups.panel.name')}
        <input value={props.name} maxLength={64} onChange={(e) => props.onName(e.target.value)} required />
      </label>
      <label>
        {t('groups.panel.topic')}
        <input
          value={props.topic}
          maxLength={MAX_PANEL_TOPIC}
          placeholder={t('groups.panel.topic.placeholder')}
          onChange={(e) => props.onTopic(e.target.value)}
        />
      </label>
    </>
  );
}
