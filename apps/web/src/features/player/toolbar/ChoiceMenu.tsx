import type { ReactNode } from 'react';
import { Popover } from './Popover';

export interface Choice<T> {
  value: T;
  label: string;
  disabled?: boolean;
  /** Why a choice is disabled, shown as its tooltip. */
  hint?: string;
  /** What the toolbar button shows when this is the choice, if shorter than the label. */
  short?: string;
}

/** A toolbar menu of exclusive choices (speed, audio source, tabs source...). */
export function ChoiceMenu<T extends string | number>(props: {
  label: string;
  value: T;
  choices: readonly Choice<T>[];
  onChange: (value: T) => void;
  /** Button content; defaults to the current choice's label. */
  button?: ReactNode;
  /** Visible caption when the accessible label is too long for the toolbar. */
  caption?: string;
  align?: 'left' | 'right';
}) {
  const { label, value, choices, onChange, button, align, caption } = props;
  const current = choices.find((c) => c.value === value);
  return (
    <Popover
      label={label}
      align={align ?? 'left'}
      // The visible text (caption and current choice) is the accessible name, with the full
      // label read out in place of a shortened caption.
      nameFromContent={button === undefined}
      button={
        button ?? (
          <>
            <span className="lp-tool-label">
              {caption ? (
                <>
                  <span aria-hidden="true">{caption}</span>
                  <span className="visually-hidden">{label}</span>
                </>
              ) : (
                label
              )}
            </span>
            <span className="lp-tool-value" title={current?.short ? current.label : undefined}>
              {current?.short ?? current?.label ?? String(value)}
            </span>
          </>
        )
      }
    >
      {(close) =>
        choices.map((c) => (
          <button
            key={String(c.value)}
            type="button"
            role="menuitemradio"
            aria-checked={c.value === value}
            className="lp-menu-item"
            disabled={c.disabled}
            title={c.hint}
            onClick={() => {
              onChange(c.value);
              close();
            }}
          >
            <span className="lp-check" aria-hidden="true">
              {c.value === value ? '✓' : ''}
            </span>
            {c.label}
            {c.hint && c.disabled ? <span className="lp-menu-hint">{c.hint}</span> : null}
          </button>
        ))
      }
    </Popover>
  );
}
