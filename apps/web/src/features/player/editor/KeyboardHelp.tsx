import { Dialog } from '../../../ui/Dialog';
import { EDIT_KEYS, PLAYER_KEYS, type KeyHelp } from './editorKeys';

function KeyTable(props: { title: string; keys: readonly KeyHelp[] }) {
  return (
    <section className="lp-help-section">
      <h3>{props.title}</h3>
      <dl className="lp-help">
        {props.keys.map((k) => (
          <div key={k.keys}>
            <dt>
              <kbd>{k.keys}</kbd>
            </dt>
            <dd>{k.does}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The keyboard help (`?`): the player's keys, and the editor's when editing is allowed. */
export function KeyboardHelp(props: { open: boolean; editing: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={props.open}
      title="Keyboard shortcuts"
      onClose={props.onClose}
      focusTitle
      actions={
        <button type="button" className="button" onClick={props.onClose}>
          Close
        </button>
      }
    >
      <div className="lp-help-columns">
        <KeyTable title="Player" keys={PLAYER_KEYS} />
        {props.editing && <KeyTable title="Editing" keys={EDIT_KEYS} />}
      </div>
    </Dialog>
  );
}
