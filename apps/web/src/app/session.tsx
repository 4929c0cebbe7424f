import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User } from 'oidc-client-ts';
import { useQueryClient } from '@tanstack/react-query';
import type { UserProfile } from '@portal/contracts/auth';
import { forgetLoginRedirects, redirectToLogin, userManager } from './auth';
import { useNotify } from './notifications';
import { apiRequest } from './api';
import { profileQuery } from './queries/profile';

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
  const [profile, setProfile] = useState<UserProfile | undefined>(undefined);
  const { notify } = useNotify();
  const client = useQueryClient();
  const notifyRef = useRef(notify);
  notifyRef.current = notify;

  useEffect(() => {
    const manager = userManager();
    let cancelled = false;
    void manager.getUser().then((u) => !cancelled && setUser(u && !u.expired ? u : null));
    const loaded = (u: User) => setUser(u);
    const unloaded = () => setUser(null);
    const expired = () => {
      console.info('Access token expired');
      setUser(null);
    };
    // A failed silent renew ends the session: say so, then go to sign-in (remembering the path).
    const renewFailed = (error: Error) => {
      console.error('Silent renew failed', error);
      notifyRef.current('Your session has ended. Please sign in again.', 'warning', { persistent: true });
      setTimeout(redirectToLogin, SIGN_IN_AGAIN_DELAY_MS);
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

  useEffect(() => {
    if (!user) {
      setProfile(undefined);
      return;
    }
    let cancelled = false;
    // Usually in flight already (app/startup.ts): the query cache shares the one request.
    void client.fetchQuery(profileQuery(user.profile.sub)).then((p) => !cancelled && setProfile(p));
    return () => {
      cancelled = true;
    };
  }, [user?.profile.sub, user, client]);

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

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
