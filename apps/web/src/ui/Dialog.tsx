import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: the browser traps focus, closes it on Escape
 * and makes the rest of the page inert. `open` drives showModal()/close().
 */
export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  /**
   * Open with the focus on the title and the content scrolled to the top, instead of on the first
   * button: for a long dialog whose only button sits at the bottom (the keyboard help), where
   * focusing the button would scroll the beginning out of view. Tab still reaches the buttons.
   */
  focusTitle?: boolean;
  /** A wide dialog (a preview beside its settings). */
  wide?: boolean;
}) {
  const { open, title, onClose, children, actions, focusTitle = false, wide = false } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  // Whether the owner still wants it open: a close() of our own (open became false) is not the
  // user's doing and is not reported back.
  const wanted = useRef(open);

  useEffect(() => {
    wanted.current = open;
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      if (focusTitle) {
        heading.current?.focus({ preventScroll: true });
        dialog.scrollTop = 0;
        dialog.querySelector('.dialog-body')?.scrollTo({ top: 0 });
      }
    }
    if (!open && dialog.open) dialog.close();
  }, [open, focusTitle]);

  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onClose={() => {
        if (wanted.current) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="dialog-body">
        <h2
          id={titleId}
          className="dialog-title"
          ref={heading}
          tabIndex={focusTitle ? -1 : undefined}
        >
          {title}
        </h2>
        {children}
        <div className="dialog-actions">{actions}</div>
      </div>
    </dialog>
  );
}
