import type { Group } from '@im/protocol';
import { BotsSection } from './BotsSection.tsx';
import { CommandsSection } from './CommandsSection.tsx';
import { IncomingHooksSection } from './IncomingHooksSection.tsx';
import { OutgoingHooksSection } from './OutgoingHooksSection.tsx';

/** What connects the group to other programs: bots, webhooks both ways, and slash commands. */
export function IntegrationsTab(props: { group: Group }) {
  const { group } = props;
  return (
    <div className="integrations">
      <BotsSection groupId={group.id} />
      <section className="integration" aria-label="Webhooks">
        <h3>Webhooks</h3>
        <IncomingHooksSection group={group} />
        <OutgoingHooksSection group={group} />
      </section>
      <CommandsSection groupId={group.id} />
    </div>
  );
}
