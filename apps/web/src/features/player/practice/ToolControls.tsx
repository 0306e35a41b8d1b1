/** A practice tool's on/off row: a checkbox named by its text, its key shown and in its title. */
export function ToggleRow(props: {
  label: string;
  keyName: string;
  title: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="lp-practice-row" title={`${props.title} (${props.keyName})`}>
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => {
          props.onChange(e.target.checked);
        }}
      />
      {props.label} <kbd>{props.keyName}</kbd>
    </label>
  );
}

/** A practice tool's toolbar button text: its name, and its current figure beside it when any. */
export function ToolLabel(props: { name: string; figure: string | null; testId: string }) {
  return (
    <span className="lp-tool-label">
      {props.name}
      {props.figure !== null && (
        <span className="lp-practice-speed" data-testid={props.testId}>
          {' '}
          {props.figure}
        </span>
      )}
    </span>
  );
}
