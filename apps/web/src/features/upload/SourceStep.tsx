import { useId, useState } from 'react';
import { Icon } from '../../ui/Icon';
import { Tabs, tabId } from '../../ui/Tabs';
import { FileDropzone } from './FileDropzone';
import { Recorder } from './Recorder';

type Mode = 'file' | 'record';

/**
 * Step 1: 'Upload File' or 'Record Video'. Recording is not offered on small screens or mobile
 * user agents, which leaves file mode only.
 */
export function SourceStep(props: {
  canRecord: boolean;
  limitSeconds: number | null;
  checking: boolean;
  onFile: (file: File) => void;
  onRecording: (blob: Blob, seconds: number) => void;
}) {
  const { canRecord, limitSeconds, checking, onFile, onRecording } = props;
  const [chosenMode, setMode] = useState<Mode>('file');
  const panelId = useId();
  const mode: Mode = canRecord ? chosenMode : 'file';
  const dropzone = <FileDropzone onFile={onFile} busy={checking} limited={limitSeconds !== null} />;

  // One element tree, narrow or wide: a window made narrow for a moment hides the recorder (no
  // recording under 1024 px) without unmounting it, so a take is still there when it is wide again.
  const recorder =
    chosenMode === 'record' ? (
      <div hidden={mode !== 'record'}>
        <Recorder limitSeconds={limitSeconds} onUse={onRecording} />
      </div>
    ) : null;
  return (
    <div className="wizard-panel">
      {canRecord ? (
        <Tabs
          label="Video source"
          selected={mode}
          onSelect={setMode}
          panelId={panelId}
          items={[
            { key: 'file', label: 'Upload File', icon: <Icon name="upload" size={18} /> },
            { key: 'record', label: 'Record Video', icon: <Icon name="camera" size={18} /> },
          ]}
        />
      ) : null}
      <div
        {...(canRecord
          ? { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId(panelId, mode) }
          : {})}
        className={canRecord ? 'tab-panel' : undefined}
      >
        {mode === 'file' ? dropzone : null}
        {recorder}
      </div>
    </div>
  );
}
