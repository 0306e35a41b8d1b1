import type { MyCreditsResponse } from '@riffscribe/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { session, type SessionUser } from '../../api/session';

/** The signed-in user (null when signed out) and their credit balances. */
export function useSession() {
  const queryClient = useQueryClient();
  const user = useQuery<SessionUser | null>({
    queryKey: ['session'],
    queryFn: () => session.renew(true),
    staleTime: 5 * 60_000,
  });
  const credits = useQuery({
    queryKey: ['my-credits'],
    queryFn: () => session.api<MyCreditsResponse>('/api/my-credits'),
    enabled: Boolean(user.data),
    // Balances change elsewhere too (an admin's grant, the monthly Pro credits, another tab):
    // read again when the window comes back to the front, and every minute.
    refetchOnWindowFocus: true,
    refetchInterval: 60_000,
  });
  return {
    loading: user.isPending,
    user: user.data ?? null,
    credits: credits.data?.credits ?? null,
    signOut: async () => {
      await session.signOut();
      // Everything cached belonged to the signed-in user; the session itself is now known: none.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      queryClient.setQueryData(['session'], null);
    },
  };
}
