import { useState } from 'react';
import { Dialog } from '../../../ui/Dialog';

const key = (owner: boolean) => `riffscribe:intro:${owner ? 'owner' : 'viewer'}`;

/** The intro shown once per browser session, in an owner's or a viewer's version. */
export function IntroModal(props: { owner: boolean; suspended?: boolean }) {
  const { owner, suspended = false } = props;
  const [open, setOpen] = useState(() => !sessionStorage.getItem(key(owner)));
  const close = () => {
    sessionStorage.setItem(key(owner), '1');
    setOpen(false);
  };
  return (
    <Dialog
      open={open && !suspended}
      title={owner ? 'Your lesson is ready' : 'Welcome to this lesson'}
      onClose={close}
      actions={
        <button type="button" className="button" onClick={close}>
          Start playing
        </button>
      }
    >
      <p>
        {owner
          ? 'The tab follows your video. Check it while it plays; you can switch between the edited and the original AI tabs at any time.'
          : 'The tab follows the video. Slow it down, loop the hard part and play along.'}
      </p>
      <ul className="lp-keys">
        <li>
          <kbd>Space</kbd> play or pause
        </li>
        <li>
          <kbd>←</kbd> <kbd>→</kbd> seek 0.5 s
        </li>
        <li>
          <kbd>↑</kbd> <kbd>↓</kbd> speed
        </li>
        <li>
          <kbd>L</kbd> loop 2 s, <kbd>Esc</kbd> clear it
        </li>
      </ul>
    </Dialog>
  );
}
