import { useEffect, type ReactNode } from 'react';
import { redirectToLogin } from './auth';
import { LoadingScreen } from './loading';
import { useSession } from './session';

/** Sends a visitor without a valid sign-in (or with an expired token) to /login, remembering the path. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { user, profile } = useSession();
  useEffect(() => {
    if (user === null) redirectToLogin();
  }, [user]);
  if (!user || !profile) return <LoadingScreen />;
  return <>{children}</>;
}
