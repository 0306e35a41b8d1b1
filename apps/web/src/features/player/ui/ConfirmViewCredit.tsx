import { Dialog } from '../../../ui/Dialog';

/** 'Use 1 view credit?' before a lesson someone else made is opened the first time. */
export function ConfirmViewCredit(props: {
  name: string;
  remaining: number;
  onCancel: () => void;
  onContinue: () => void;
}) {
  return (
    <Dialog
      open
      title="Use 1 view credit?"
      onClose={props.onCancel}
      actions={
        <>
          <button type="button" className="button secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" className="button" onClick={props.onContinue}>
            Continue
          </button>
        </>
      }
    >
      <p>
        Opening “{props.name}” for the first time uses 1 view credit. You have {props.remaining}{' '}
        left.
      </p>
    </Dialog>
  );
}
