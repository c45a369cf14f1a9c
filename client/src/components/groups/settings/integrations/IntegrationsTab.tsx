import type { Group } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { BotsSection } from './BotsSection.tsx';
import { CommandsSection } from './CommandsSection.tsx';
import { IncomingHooksSection } from './IncomingHooksSection.tsx';
import { OutgoingHooksSection } from './OutgoingHooksSection.tsx';

/** What connects the group to other programs: bots, webhooks both ways, and slash commands. */
export function IntegrationsTab(props: { group: Group }) {
  const { group } = props;
  const { t } = useTranslation();
  return (
    <div className="integrations">
      <BotsSection groupId={group.id} />
      <section className="integration" aria-label={t('integrations.webhooks')}>
        <h3>{t('integrations.webhooks')}</h3>
        <IncomingHooksSection group={group} />
        <OutgoingHooksSection group={group} />
      </section>
      <CommandsSection groupId={group.id} />
    </div>
  );
}
