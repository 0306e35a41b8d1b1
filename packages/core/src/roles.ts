/** User roles (spec section 3). Free users are those who are neither pilot nor admin. */
export const ROLES = ['admin', 'pilot', 'user'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'user';

/** Pilots and admins have no upload limits and may use Pro-only actions. */
export function isPrivileged(role: Role): boolean {
  return role === 'admin' || role === 'pilot';
}

export function parseRole(value: unknown): Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
    ? (value as Role)
    : DEFAULT_ROLE;
}

export const CREDIT_KINDS = ['creator', 'view'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];
