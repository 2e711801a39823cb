/**
 * Key roots that several features build their own queries under, so that a change made in one
 * feature refreshes what the others show: a task approved from the AI suggestions or edited on the
 * Tasks page refreshes the dashboard's urgent tasks; a goal or advice saved in the Strategy Center
 * refreshes the dashboard's cards. A feature invalidates the root; it never names another's keys.
 */
export const queryRoots = {
  tasks: ['tasks'] as const,
  goals: ['strategic-goals'] as const,
  advice: ['strategic-advice'] as const,
};
