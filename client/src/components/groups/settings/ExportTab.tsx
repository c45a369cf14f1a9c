import { useTranslation } from 'react-i18next';
import type { Group } from '@im/protocol';
import { api } from '../../../api/api.ts';
import { ExportSection } from '../../exports/ExportSection.tsx';

/** The owner's export of the whole group: every panel's messages, members, roles, emoji and files. */
export function ExportTab(props: { group: Group }) {
  const { t } = useTranslation();
  return (
    <ExportSection
      title={t('groups.export.title')}
      hint={t('groups.export.hint')}
      button={t('groups.export')}
      start={() => api.call('import.exportGroup', { groupId: props.group.id })}
    />
  );
}
