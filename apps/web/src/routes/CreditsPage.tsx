import { PRO_MONTHLY_CREATOR_CREDITS } from '@riffscribe/core';
import { SignInPrompt } from '../features/auth/SignInPrompt';
import { useSession } from '../features/auth/useSession';
import { ContactUsButton } from '../features/credits/ContactUsButton';
import { UpgradeRequest } from '../features/credits/UpgradeRequest';
import { Icon } from '../ui/Icon';

const PRO_BENEFITS = [
  `${String(PRO_MONTHLY_CREATOR_CREDITS)} creation credits per month`,
  'export of videos with overlaid tabs',
  'share to personal page',
  'priority support',
];

/** /credits: balances, what credits are for, the Pro plan and how to reach us. */
export function CreditsPage() {
  const { user, credits, loading } = useSession();
  if (loading) return <main className="main page" id="main" />;
  return (
    <main className="main page" id="main">
      <header className="page-head">
        <div>
          <p className="eyebrow">Credits</p>
          <h1>Credits and Pro</h1>
          <p className="muted">
            Credits keep Riffscribe running. Here is what you have and how to get more.
          </p>
        </div>
      </header>

      {user ? (
        <div className="balance-grid">
          <div className="balance-card">
            <span className="balance-icon" aria-hidden="true">
              <Icon name="upload" size={22} />
            </span>
            <p className="balance-value" data-testid="creator-balance">
              {credits?.creatorRemaining ?? '–'}
            </p>
            <h2>Creator credits</h2>
            <p className="muted">One credit turns one of your videos into a tab lesson.</p>
          </div>
          <div className="balance-card">
            <span className="balance-icon" aria-hidden="true">
              <Icon name="eye" size={22} />
            </span>
            <p className="balance-value" data-testid="view-balance">
              {credits?.viewRemaining ?? '–'}
            </p>
            <h2>View credits</h2>
            <p className="muted">
              One credit opens someone else&apos;s lesson for the first time. Your own lessons, and
              lessons you opened before, are free. Viewing on a phone uses none.
            </p>
          </div>
        </div>
      ) : (
        <section className="upload-card">
          <SignInPrompt />
        </section>
      )}

      <section className="pro-card" aria-labelledby="pro-title">
        <div className="pro-copy">
          <p className="eyebrow">Pro plan</p>
          <h2 id="pro-title">Go Pro</h2>
          <ul className="benefits">
            {PRO_BENEFITS.map((b) => (
              <li key={b}>
                <Icon name="check" size={18} />
                <span className="benefit-text">{b}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="pro-action">{user ? <UpgradeRequest role={user.role} /> : null}</div>
      </section>

      <section className="contact-card" aria-labelledby="contact-title">
        <div>
          <h2 id="contact-title">Need more credits or have a question?</h2>
          <p className="muted">
            Write to us and we will sort it out. The button copies our e-mail address.
          </p>
        </div>
        <ContactUsButton />
      </section>
    </main>
  );
}
