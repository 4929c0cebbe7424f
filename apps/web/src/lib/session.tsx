import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User } from 'oidc-client-ts';
import { useQuery } from '@tanstack/react-query';
import type { UserProfile } from '@portal/contracts/auth';
import { forgetLoginRedirects, redirectToLogin, userManager } from './auth';
import { useNotify } from './notifications';
import { apiRequest } from './api';
import { profileQuery } from './queries/profile';
import { checkNow, connectivity, whenOnline } from './connectivity';

export interface Session {
  /** undefined while loading; null when signed out */
  user: User | null | undefined;
  profile: (UserProfile & { expires_at?: number }) | undefined;
  signOut(): Promise<void>;
}

const SIGN_IN_AGAIN_DELAY_MS = 2_000;

const SessionContext = createContext<Session | undefined>(undefined);

/** Holds the signed-in user (from oidc-client-ts) and the profile the API answers for it. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const { notify } = useNotify();
  const notifyRef = useRef(notify);
  notifyRef.current = notify;

  useEffect(() => {
    const manager = userManager();
    let cancelled = false;
    void manager.getUser().then((u) => !cancelled && setUser(u && !u.expired ? u : null));
    const loaded = (u: User) => setUser(u);
    const unloaded = () => setUser(null);
    // A failed silent renew ends the session: say so, then go to sign-in (remembering the path).
    const endSession = () => {
      notifyRef.current('Your session has ended. Please sign in again.', 'warning', { persistent: true });
      setTimeout(redirectToLogin, SIGN_IN_AGAIN_DELAY_MS);
    };
    // Unless the server was not reached: then sign-in would open on a page that cannot load. Renew once it
    // answers again (connectivity.ts), and end the session only if that fails.
    let renewing = false;
    const renewWhenBack = () => {
      if (renewing) return;
      renewing = true;
      whenOnline(() => {
        void manager
          .signinSilent()
          .catch(() => (cancelled ? undefined : endSession()))
          .finally(() => {
            renewing = false;
          });
      });
    };
    const expired = () => {
      console.info('Access token expired');
      if (!connectivity().online) renewWhenBack();
      else setUser(null);
    };
    const renewFailed = (error: Error) => {
      console.error('Silent renew failed', error);
      void checkNow().then((online) => (online ? endSession() : renewWhenBack()));
    };
    manager.events.addSilentRenewError(renewFailed);
    manager.events.addUserLoaded(loaded);
    manager.events.addUserUnloaded(unloaded);
    manager.events.addAccessTokenExpired(expired);
    return () => {
      cancelled = true;
      manager.events.removeSilentRenewError(renewFailed);
      manager.events.removeUserLoaded(loaded);
      manager.events.removeUserUnloaded(unloaded);
      manager.events.removeAccessTokenExpired(expired);
    };
  }, []);

  // Usually in flight already (shell/startup.ts): the query cache shares the one request. A query, not a single
  // fetch, so that it is fetched again when the server answers after offline mode (connectivity.ts).
  const { data: profile } = useQuery({
    ...profileQuery(user?.profile.sub ?? ''),
    enabled: Boolean(user),
  });

  const value = useMemo<Session>(
    () => ({
      user,
      profile: profile && user ? { ...profile, expires_at: user.expires_at } : undefined,
      signOut: async () => {
        await apiRequest('auth/logout', { method: 'POST', responseType: 'none' }).catch(() => undefined);
        const manager = userManager();
        const current = await manager.getUser();
        await manager.removeUser();
        forgetLoginRedirects();
        await manager.signoutRedirect({ id_token_hint: current?.id_token });
      },
    }),
    [user, profile],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * A session given from outside instead of the signed-in user's: the component tests' (ui/testing/render.tsx), which
 * render a screen as a user with a profile of their choosing, with no sign-in and no profile call.
 */
export function FixedSessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
