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
