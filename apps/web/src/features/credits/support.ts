/**
 * The support address 'Contact us' copies. Set VITE_SUPPORT_EMAIL at build time to match the
 * server's SUPPORT_EMAIL; the default is the server's default.
 */
export const SUPPORT_EMAIL: string =
  (import.meta.env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@riffscribe.local';
