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

  if (!canRecord) return <div className="wizard-panel">{dropzone}</div>;
  return (
    <div className="wizard-panel">
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
      <div
        role="tabpanel"
        className="tab-panel"
        id={panelId}
        aria-labelledby={tabId(panelId, mode)}
      >
        {mode === 'file' ? dropzone : <Recorder limitSeconds={limitSeconds} onUse={onRecording} />}
      </div>
    </div>
  );
}
