import { MESSAGES, type CreditKind } from '@riffscribe/core';
import { Link } from 'react-router';
import { Dialog } from '../../ui/Dialog';

/** 'Unfortunately you are out of creator|view credits...' with 'Get more credits' and Close. */
export function OutOfCreditsDialog(props: {
  kind: CreditKind;
  open: boolean;
  onClose: () => void;
}) {
  const { kind, open, onClose } = props;
  return (
    <Dialog
      open={open}
      title="Out of credits"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button ghost" onClick={onClose}>
            Close
          </button>
          <Link className="button" to="/credits" onClick={onClose}>
            Get more credits
          </Link>
        </>
      }
    >
      <p>{MESSAGES.outOfCredits(kind)}</p>
    </Dialog>
  );
}
