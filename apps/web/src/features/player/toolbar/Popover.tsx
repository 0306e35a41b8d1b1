import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A toolbar button that opens a panel below it. The panel closes on a click elsewhere, on Escape
 * (focus goes back to the button) and, when `closeOnPick`, after a choice inside it.
 */
export function Popover(props: {
  label: string;
  /** What the button shows; its accessible name is `label`. */
  button: ReactNode;
  children: (close: () => void) => ReactNode;
  role?: 'menu' | 'dialog';
  /** Which edge of the button the panel lines up with; 'auto': the side with more room. */
  align?: 'left' | 'right' | 'auto';
  disabled?: boolean;
  title?: string;
  /** The button's content already carries `label` (perhaps visually hidden): no aria-label. */
  nameFromContent?: boolean;
}) {
  const { label, button, children, role = 'menu', align = 'left', disabled, title } = props;
  const { nameFromContent = false } = props;
  const [open, setOpen] = useState(false);
  const [side, setSide] = useState<'left' | 'right'>('left');
  const root = useRef<HTMLDivElement>(null);
  const [trigger, setTrigger] = useState<HTMLButtonElement | null>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        trigger?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, trigger]);
  const close = useCallback(() => {
    setOpen(false);
    trigger?.focus();
  }, [trigger]);

  return (
    <div className="lp-popover" ref={root}>
      <button
        ref={setTrigger}
        type="button"
        className="lp-tool"
        aria-label={nameFromContent ? undefined : label}
        title={title ?? label}
        aria-haspopup={role}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        onClick={(e) => {
          if (align === 'auto') {
            // A wrapping toolbar may put the button at either end of the window.
            const box = e.currentTarget.getBoundingClientRect();
            setSide(box.left + box.width / 2 > window.innerWidth / 2 ? 'right' : 'left');
          }
          setOpen((o) => !o);
        }}
      >
        {button}
        <span className="lp-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div
          id={panelId}
          className={`lp-panel lp-panel-${align === 'auto' ? side : align}`}
          role={role}
          aria-label={label}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}
