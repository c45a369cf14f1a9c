import type { Group } from '@im/protocol';
import { api } from '../../../api/api.ts';
import { ExportSection } from '../../exports/ExportSection.tsx';

/** The owner's export of the whole group: every panel's messages, members, roles, emoji and files. */
export function ExportTab(props: { group: Group }) {
  return (
    <ExportSection
      title="Export this group"
      hint="A zip of every panel's messages (private ones too), the members, roles, custom emoji and attached files. It can be imported into this or another server."
      button="Export"
      start={() => api.call('import.exportGroup', { groupId: props.group.id })}
    />
  );
}
