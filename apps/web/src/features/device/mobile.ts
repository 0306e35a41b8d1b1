/** Phones and tablets by user agent (iPadOS desktop-mode Safari counts by its touch points). */
export function isMobileUserAgent(userAgent: string, maxTouchPoints = 0): boolean {
  if (/Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(userAgent)) {
    return true;
  }
  return userAgent.includes('Macintosh') && maxTouchPoints > 1;
}
