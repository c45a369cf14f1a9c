import './catch-up.css';

/** Offered while the newest messages are out of view (scrolled up, or a window opened on older ones). */
export function JumpToPresent(props: { onJump: () => void }) {
  return (
    <button type="button" className="jump-present" data-testid="jump-to-present" onClick={props.onJump}>
      Jump to present ↓
    </button>
  );
}
