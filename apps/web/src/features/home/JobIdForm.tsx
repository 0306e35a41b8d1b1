import { MESSAGES } from '@riffscribe/core';
import { useId, useState } from 'react';

/** 'Open a job by ID': loads a job typed in; an empty value gives 'Please enter a valid Job ID'. */
export function JobIdForm(props: { onOpen: (jobId: string) => void; loadError: string | null }) {
  const { onOpen, loadError } = props;
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const shown = error ?? loadError;
  return (
    <form
      className="job-id-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const jobId = value.trim();
        if (!jobId) {
          setError(MESSAGES.invalidJobId);
          return;
        }
        setError(null);
        onOpen(jobId);
      }}
    >
      <label htmlFor={inputId}>Have a Job ID? Open it here</label>
      <div className="job-id-row">
        <input
          id={inputId}
          type="text"
          value={value}
          placeholder="e.g. 3f2c9a1e-…"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? errorId : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="button secondary">
          Open job
        </button>
      </div>
      {shown ? (
        <p id={errorId} className="form-error" role="alert">
          {shown}
        </p>
      ) : null}
    </form>
  );
}
