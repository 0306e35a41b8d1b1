import { useNavigate } from 'react-router';

/** Small screens get this instead of the player; nothing is loaded, so no view credit is used. */
export function DesktopRequired() {
  const navigate = useNavigate();
  return (
    <main className="lp-state">
      <h1>Desktop Experience Required</h1>
      <p>
        The tab player currently works only on full-size screens like laptops or desktops. No view
        credits were used, and you can open this video later from a larger screen.
      </p>
      <div className="lp-state-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigate(-1);
          }}
        >
          Go Back
        </button>
      </div>
    </main>
  );
}
