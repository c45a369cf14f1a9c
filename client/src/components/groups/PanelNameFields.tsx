import { MAX_PANEL_TOPIC } from '../../state/groups.ts';

/** A panel's name and topic, as it is made or changed. */
export function PanelNameFields(props: {
  name: string;
  onName: (name: string) => void;
  topic: string;
  onTopic: (topic: string) => void;
}) {
  return (
    <>
      <label>
        Panel name
        <input value={props.name} maxLength={64} onChange={(e) => props.onName(e.target.value)} required />
      </label>
      <label>
        Topic
        <input
          value={props.topic}
          maxLength={MAX_PANEL_TOPIC}
          placeholder="What this panel is for"
          onChange={(e) => props.onTopic(e.target.value)}
        />
      </label>
    </>
  );
}
