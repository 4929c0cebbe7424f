import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '@mui/material';
import { checkNow, connectivity, onConnectivity } from '../../lib/connectivity';
import { reportClientError } from '../../lib/error-reporting';
import { isChunkLoadError, reloadIfNewVersion } from '../../lib/version';
import NotFoundPage from './NotFoundPage';
import { ShellNotice } from './AccessViews';

export const CHUNK_FAILED_TITLE = 'This page could not be loaded';

const reload = () => window.location.reload();
/** How long "Connection established" shows before a page that could not load is loaded again. */
const RELOAD_AFTER_RECOVERY_MS = 1_500;

/**
 * The error boundary of every route (errorElement in the route table). Inside the shell it replaces only the
 * page: a page chunk that failed to load offers Reload, and reloads by itself once when a new version of the
 * portal is served (its chunk names changed), and when the server answers again after offline mode; any other
 * failure offers Reload too and is reported.
 */
export function RouteErrorView() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  useEffect(() => {
    if (!chunk) return;
    // Perhaps the server is not reached (offline mode starts, and the notice says so): once it answers again,
    // the page loads by itself.
    void checkNow();
    let offline = !connectivity().online;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onConnectivity(() => {
      if (!connectivity().online) offline = true;
      // After "Connection established" has been seen for a moment.
      else if (offline && timer === undefined) timer = setTimeout(reload, RELOAD_AFTER_RECOVERY_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [chunk]);

  useEffect(() => {
    if (chunk) void reloadIfNewVersion();
    else if (!notFound) {
      console.error(error);
      reportClientError(error);
    }
  }, [chunk, notFound, error]);

  if (notFound) return <NotFoundPage />;
  const actions = (
    <>
      <Button variant="contained" onClick={reload}>
        Reload
      </Button>
      <Button component={Link} to="/" variant="outlined" reloadDocument>
        Go to My fleet
      </Button>
    </>
  );
  return chunk ? (
    <ShellNotice title={CHUNK_FAILED_TITLE} testId="chunk-failed" actions={actions}>
      A part of the portal did not arrive: the connection may have dropped, or a new version of the portal was
      installed. Reload to continue.
    </ShellNotice>
  ) : (
    <ShellNotice title="Something went wrong on this page" testId="page-failed" actions={actions}>
      The page stopped because of an error. It has been reported. Reload to try again.
    </ShellNotice>
  );
}
