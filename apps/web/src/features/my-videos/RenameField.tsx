import { normalizeProjectName, stripExtension } from '@riffscribe/core';
import { useState } from 'react';
import { Icon } from '../../ui/Icon';

/**
 * The project name, editable in place: saved on Enter or when the field loses focus. The name is
 * normalised as the server stores it (trimmed; empty, 'null' or 'undefined' become no name, and
 * the file name without its extension shows as the placeholder); the field then shows that.
 */
export function RenameField(props: {
  projectName: string | null;
  fileName: string;
  onSave: (name: string | null) => Promise<unknown>;
}) {
  const { projectName, fileName, onSave } = props;
  const [value, setValue] = useState(projectName ?? '');
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);

  const save = async () => {
    const next = normalizeProjectName(value);
    if (next === normalizeProjectName(projectName)) {
      setValue(next ?? '');
      return;
    }
    setSaving(true);
    setFailed(false);
    try {
      await onSave(next);
      setValue(next ?? '');
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="rename">
      <input
        className="rename-input"
        type="text"
        value={value}
        maxLength={200}
        placeholder={stripExtension(fileName)}
        aria-label={`Project name for ${fileName}`}
        onChange={(event) => {
          setValue(event.target.value);
        }}
        onBlur={() => void save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            event.currentTarget.blur();
          }
          if (event.key === 'Escape') setValue(projectName ?? '');
        }}
      />
      <Icon name="pencil" size={15} className="rename-icon" />
      <span className="rename-state" aria-live="polite">
        {saving ? 'Saving…' : failed ? 'Not saved' : ''}
      </span>
    </div>
  );
}
