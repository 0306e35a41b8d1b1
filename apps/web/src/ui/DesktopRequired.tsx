import { Icon } from './Icon';

/**
 * What small screens and mobile user agents get instead of the tab player (the home page's success
 * state, a lesson link): nothing is loaded, so no view credit is spent. `onBack` is the Go Back.
 */
export function DesktopRequired(props: { onBack: () => void }) {
  return (
    <div className="status-screen desktop-required" aria-labelledby="desktop-title">
      <span className="status-orb" aria-hidden="true">
        <Icon name="monitor" size={26} />
      </span>
      <h2 id="desktop-title">Desktop Experience Required</h2>
      <p>
        The tab player currently works only on full-size screens like laptops or desktops. No view
        credits were used, and you can open this video later from a larger screen.
      </p>
      <button type="button" className="button" onClick={props.onBack}>
        <Icon name="arrowLeft" size={18} /> Go Back
      </button>
    </div>
  );
}
