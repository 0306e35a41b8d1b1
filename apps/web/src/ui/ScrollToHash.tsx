import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Client-side navigation does not scroll like a page load: scroll to the #anchor of the new
 * address (e.g. /#upload from another page), else to the top when the page changes.
 */
export function ScrollToHash() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [pathname, hash]);
  return null;
}
