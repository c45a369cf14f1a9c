import { useState } from 'react';
import { QUICK_REACTIONS } from '../messages/handlers.ts';
import { EmojiPicker } from './EmojiPicker.tsx';

/** The quick reactions, and "more" for the full picker (every emoji, the group's own, recently used). */
export function ReactionPicker(props: { onPick(emoji: string): void }) {
  const [full, setFull] = useState(false);
  if (full) return <EmojiPicker label="Pick a reaction" onPick={props.onPick} />;
  return (
    <div className="reaction-picker">
      {QUICK_REACTIONS.map((emoji) => (
        <button key={emoji} type="button" aria-label={`React ${emoji}`} onClick={() => props.onPick(emoji)}>
          {emoji}
        </button>
      ))}
      <button type="button" aria-label="More reactions" title="More reactions" onClick={() => setFull(true)}>
        ＋
      </button>
    </div>
  );
}
