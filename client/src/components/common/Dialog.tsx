import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon.tsx';

const FOCUSABLE =
  'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

// Open dialogs, innermost last: only the topmost one answers Escape and Tab
// (a dialog opened from a dialog is inside it, and both listen to the document).
const open: symbol[] = [];

/**
 * A modal: Escape or the backdrop closes it; focus moves in (to the element
 * marked `data-autofocus`, else the first field), stays in (Tab wraps), and
 * goes back out.
 */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** `medium`: wider than a form, narrower than `wide` (Settings). */
  size?: 'medium';
  /** `alertdialog` for a question that needs an answer (ConfirmDialog). */
  role?: 'dialog' | 'alertdialog';
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  // Owners pass a new onClose on every render: held in a ref so a re-render does not move focus.
  const onClose = useRef(props.onClose);
  useEffect(() => {
    onClose.current = props.onClose;
  });
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const me = Symbol('dialog');
    open.push(me);
    const focusable = () => [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    // The marked element, else the first field rather than the header's Close button, when there is one.
    const first =
      box.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      focusable().find((el) => !el.hasAttribute('data-dialog-close')) ??
      focusable()[0];
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (open.at(-1) !== me) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose.current();
        return;
      }
      if (event.key !== 'Tab' || !box.current) return;
      const items = focusable();
      if (items.length === 0) return;
      const active = document.activeElement;
      const inside = active instanceof Node && box.current.contains(active);
      if (event.shiftKey && (!inside || active === items[0])) {
        event.preventDefault();
        items.at(-1)!.focus();
      } else if (!event.shiftKey && (!inside || active === items.at(-1))) {
        event.preventDefault();
        items[0]!.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      open.splice(open.indexOf(me), 1);
      // Back to the opener, unless it is gone (then the browser's default is as good as any).
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose.current()}>
      <div
        ref={box}
        className={props.wide ? 'dialog wide' : props.size === 'medium' ? 'dialog medium' : 'dialog'}
        role={props.role ?? 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
      >
        <header className="dialog-head">
          <h2 id={titleId}>{props.title}</h2>
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.close')}
            data-dialog-close
            onClick={() => onClose.current()}
          >
            <Icon name="close" />
          </button>
        </header>
        {props.children}
      </div>
    </div>
  );
}
