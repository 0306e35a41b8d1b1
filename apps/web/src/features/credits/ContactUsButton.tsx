import { CONTACT_COPY_NOTICE_MS } from '@riffscribe/core';
import { useEffect, useState } from 'react';
import { Icon } from '../../ui/Icon';
import { SUPPORT_EMAIL } from './support';

/** 'Contact us': copies the support address and says 'email address copied' for about 1.2 s. */
export function ContactUsButton() {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => {
      setCopied(false);
    }, CONTACT_COPY_NOTICE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [copied]);

  return (
    <span className="contact">
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          navigator.clipboard.writeText(SUPPORT_EMAIL).then(
            () => {
              setCopied(true);
            },
            () => {
              // Other failures are silently ignored (spec section 8); the address stays visible.
            },
          );
        }}
      >
        <Icon name="copy" size={18} /> Contact us
      </button>
      <span className="contact-note" role="status">
        {copied ? 'email address copied' : ''}
      </span>
    </span>
  );
}
