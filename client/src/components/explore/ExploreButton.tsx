import { navigate } from '../../state/navigation.ts';

/** Opens the directory of public groups (from the home screen and from a join prompt). */
export function ExploreButton() {
  return (
    <button type="button" onClick={() => navigate({ name: 'explore' })}>
      Explore public groups
    </button>
  );
}
