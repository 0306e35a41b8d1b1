import { MESSAGES, isPrivileged, type Role } from '@riffscribe/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/endpoints';
import { Icon } from '../../ui/Icon';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/** The Pro upgrade request: its pending state, or a short form to send one. */
export function UpgradeRequest(props: { role: Role }) {
  const queryClient = useQueryClient();
  const messageId = useId();
  const [message, setMessage] = useState('');
  const status = useQuery({ queryKey: ['upgrade-requests'], queryFn: api.upgradeStatus });
  const send = useMutation({
    mutationFn: () => api.requestUpgrade(message.trim() || MESSAGES.defaultUpgradeMessage),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['upgrade-requests'] }),
    onError: () => {
      window.alert('Failed to submit upgrade request');
    },
  });

  if (isPrivileged(props.role)) {
    return (
      <p className="upgrade-state">
        <Icon name="check" size={18} /> Your account already has Pro features ({props.role}).
      </p>
    );
  }
  if (status.isPending) return <p className="muted">Checking your upgrade request…</p>;
  if (status.data?.hasPending && status.data.request) {
    return (
      <p className="upgrade-state" role="status">
        <Icon name="clock" size={18} /> Upgrade requested on{' '}
        {dateFormat.format(new Date(status.data.request.createdAt))}. We will get back to you by
        e-mail.
      </p>
    );
  }
  return (
    <form
      className="upgrade-form"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <label htmlFor={messageId}>Anything we should know? (optional)</label>
      <textarea
        id={messageId}
        rows={3}
        maxLength={2000}
        value={message}
        placeholder="For example: I teach guitar and want to share lessons with my students."
        onChange={(event) => {
          setMessage(event.target.value);
        }}
      />
      <button type="submit" className="button" disabled={send.isPending}>
        Request Pro upgrade
      </button>
    </form>
  );
}
