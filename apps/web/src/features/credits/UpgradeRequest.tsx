import { MESSAGES, isPrivileged, type Role } from '@riffscribe/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../../api/endpoints';
import { Icon } from '../../ui/Icon';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/**
 * The Pro upgrade request (spec section 4, Upgrade dialog): a short form, then 'Request
 * Submitted!' once sent; a request already pending shows 'Request Under Review' with its date.
 */
export function UpgradeRequest(props: { role: Role }) {
  const queryClient = useQueryClient();
  const messageId = useId();
  const [message, setMessage] = useState('');
  const status = useQuery({ queryKey: ['upgrade-requests'], queryFn: api.upgradeStatus });
  const send = useMutation({
    mutationFn: () => api.requestUpgrade(message.trim() || MESSAGES.defaultUpgradeMessage),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['upgrade-requests'] }),
    onError: () => {
      window.alert(MESSAGES.failedToSubmitUpgrade);
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
  const pending = status.data?.hasPending ? status.data.request : null;
  if (send.isSuccess || pending) {
    // Sent from here: the request's date arrives with the reload of its status.
    const requestedAt = pending ? new Date(pending.createdAt) : new Date();
    return (
      <div className="upgrade-state" role="status">
        <Icon name={send.isSuccess ? 'check' : 'clock'} size={18} />
        <div>
          <h3 className="upgrade-state-title">
            {send.isSuccess ? MESSAGES.upgradeRequestSubmitted : MESSAGES.upgradeRequestUnderReview}
          </h3>
          <p>
            Upgrade requested on {dateFormat.format(requestedAt)}. We will get back to you by
            e-mail.
          </p>
        </div>
      </div>
    );
  }
  const declined = status.data?.request?.status === 'rejected' ? status.data.request : null;
  return (
    <form
      className="upgrade-form"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      {declined && (
        <p className="upgrade-declined" role="status">
          Your request of {dateFormat.format(new Date(declined.createdAt))} was declined. You may
          send a new one with more about how you use Riffscribe.
        </p>
      )}
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
