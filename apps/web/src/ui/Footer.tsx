import { Link } from 'react-router';
import { BrandMark } from './BrandMark';

/** The page foot: brand line and the main links. */
export function Footer() {
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <BrandMark size={22} />
          <span>Riffscribe</span>
          <span className="muted">· You just play, we do the rest</span>
        </div>
        <nav aria-label="Footer" className="footer-links">
          <a href="/#how-it-works">How it works</a>
          <Link to="/explore">Explore</Link>
          <Link to="/credits">Credits &amp; Pro</Link>
        </nav>
      </div>
    </footer>
  );
}
