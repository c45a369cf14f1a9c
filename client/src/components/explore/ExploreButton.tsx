import { useTranslation } from 'react-i18next';
import { navigate } from '../../state/navigation.ts';

/** Opens the directory of public groups (from the home screen and from a join prompt). */
export function ExploreButton() {
  const { t } = useTranslation();
  return (
    <button type="button" onClick={() => navigate({ name: 'explore' })}>
      {t('explore.title')}
    </button>
  );
}
