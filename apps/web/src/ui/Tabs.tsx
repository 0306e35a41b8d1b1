import { useRef, type KeyboardEvent } from 'react';

/** The id of the tab for `key` of the tabs controlling `panelId`. */
export function tabId(panelId: string, key: string): string {
  return `${panelId}-tab-${key}`;
}

export interface TabItem<K extends string> {
  key: K;
  label: string;
  icon?: React.ReactNode;
}

/**
 * An ARIA tab list (arrow keys, Home and End move between tabs). The caller renders one panel
 * with id `panelId` and role tabpanel, labelled by `tabId(panelId, selected)`.
 */
export function Tabs<K extends string>(props: {
  label: string;
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The id of the panel the tabs control. */
  panelId: string;
}) {
  const { label, items, selected, onSelect, panelId } = props;
  const refs = useRef(new Map<K, HTMLButtonElement>());

  const move = (event: KeyboardEvent, index: number) => {
    const last = items.length - 1;
    const target =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const item = items[target];
    if (!item) return;
    onSelect(item.key);
    refs.current.get(item.key)?.focus();
  };

  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {items.map((item, index) => (
        <button
          key={item.key}
          ref={(el) => {
            if (el) refs.current.set(item.key, el);
            else refs.current.delete(item.key);
          }}
          id={tabId(panelId, item.key)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={item.key === selected}
          aria-controls={panelId}
          tabIndex={item.key === selected ? 0 : -1}
          onClick={() => {
            onSelect(item.key);
          }}
          onKeyDown={(event) => {
            move(event, index);
          }}
        >
          {item.icon}
          {item.label}
        </button>
      ))}
    </div>
  );
}
