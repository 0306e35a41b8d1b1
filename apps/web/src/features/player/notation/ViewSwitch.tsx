/** What the tab area shows: the scrolling tab timeline or notation by bars. */
export type TabViewMode = 'tab' | 'notation';

const VIEWS: { mode: TabViewMode; label: string }[] = [
  { mode: 'tab', label: 'Tab' },
  { mode: 'notation', label: 'Notation' },
];

/** Two buttons, one pressed: the tab timeline or the notation view. */
export function ViewSwitch(props: { view: TabViewMode; onChange: (view: TabViewMode) => void }) {
  return (
    <div className="lp-view-switch" role="group" aria-label="Tab view mode">
      {VIEWS.map(({ mode, label }) => (
        <button
          key={mode}
          type="button"
          aria-pressed={props.view === mode}
          onClick={() => {
            props.onChange(mode);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
