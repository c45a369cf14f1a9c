import { useTranslation } from 'react-i18next';

/** The product's logo and name, as the sign-in screen shows them. */
export function ProductMark() {
  const { t } = useTranslation();
  return (
    <div className="product-mark" data-testid="product-mark">
      {/* The name beside it says what it is: the picture needs no text of its own. */}
      <img src="/logo.svg" alt="" width={40} height={40} />
      <span>{t('app.name')}</span>
    </div>
  );
}
