/** User levels that see the AI Factory (spec section 6). */
export const FACTORY_LEVELS = ['ceo', 'admin'] as const;
/** User levels that see the Super Admin page. */
export const ADMIN_LEVELS = ['admin'] as const;
/** User levels that create, rename and delete organizations. */
export const ORG_CREATOR_LEVELS = ['ceo', 'admin'] as const;

export function hasLevel(level: string | undefined, levels: readonly string[]): boolean {
  return level !== undefined && levels.includes(level);
}
