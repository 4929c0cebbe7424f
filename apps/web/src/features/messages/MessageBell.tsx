import { Fragment, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Box,
  Button,
  ClickAwayListener,
  Divider,
  IconButton,
  Link,
  Paper,
  Popper,
  Stack,
  Typography,
} from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  autoOpenMessageIds,
  MESSAGE_AUTO_OPEN_DELAY_MS,
  messageTextParts,
  unreadCount,
} from '@portal/contracts/rules';
import { useSession } from '../../lib/session';
import { activeMessagesQuery, useMarkAsRead } from './active-messages-api';

/** The messages the bell has opened for in this browser session, per user (sessionStorage). */
const openedKey = (userId: string) => `messages.autoOpened.${userId}`;
function readOpened(userId: string): Set<string> {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(openedKey(userId)) ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}
function rememberOpened(userId: string, ids: readonly string[]) {
  try {
    const all = new Set([...readOpened(userId), ...ids]);
    sessionStorage.setItem(openedKey(userId), JSON.stringify([...all]));
  } catch {
    // Without storage the bell still opens only once per page load.
  }
}

/**
 * The bell: unread count, the list of active messages (title, text with line breaks kept, Mark as read). An
 * address of this portal in a text is a link (an alert's link to its event, alone on its line, reads "Open the
 * event"); no other address is.
 * Opens by itself after 200 ms when an unread message is flagged notify, once per message per user and browser
 * session (not on every page load). The list does not block the page.
 */
export function MessageBell() {
  const anchor = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const { data: messages = [], isSuccess } = useQuery(activeMessagesQuery());
  const markAsRead = useMarkAsRead();
  const userId = useSession().profile?.sub;
  const autoOpened = useRef(false);

  const pending = userId ? autoOpenMessageIds(messages, readOpened(userId)).join(',') : '';
  useEffect(() => {
    if (!pending || !userId || autoOpened.current) return;
    const timer = setTimeout(() => {
      autoOpened.current = true;
      rememberOpened(userId, pending.split(','));
      setOpen(true);
    }, MESSAGE_AUTO_OPEN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pending, userId]);

  const unread = unreadCount(messages);
  // Whether the bell has decided: its messages are in and nothing is due to open it by itself (a test waits for
  // this before it checks that the list stayed closed).
  const settled = isSuccess && userId !== undefined && (!pending || autoOpened.current);
  return (
    <>
      <IconButton
        ref={anchor}
        color="inherit"
        aria-label={`Messages, ${unread} unread`}
        onClick={() => setOpen((o) => !o)}
        data-testid="message-bell"
        data-settled={settled ? 'true' : 'false'}
      >
        <Badge badgeContent={unread} color="error" data-testid="unread-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popper
        open={open}
        anchorEl={anchor.current}
        placement="bottom-end"
        sx={{ zIndex: (t) => t.zIndex.modal }}
      >
        <ClickAwayListener onClickAway={(e) => !anchor.current?.contains(e.target as Node) && setOpen(false)}>
          <Paper
            elevation={8}
            sx={{ width: { xs: 'calc(100vw - 16px)', sm: 380 }, maxHeight: '70vh', overflow: 'auto', mt: 1 }}
            role="region"
            aria-label="Messages"
          >
            <Typography variant="subtitle1" sx={{ px: 2, py: 1.5, fontWeight: 600 }}>
              Messages
            </Typography>
            <Divider />
            {messages.length === 0 && (
              <Typography sx={{ p: 2 }} color="text.secondary">
                No messages
              </Typography>
            )}
            {messages.map((m, i) => (
              <Box
                key={m.id}
                sx={{
                  px: 2,
                  py: 1.5,
                  borderTop: i ? 1 : 0,
                  borderColor: 'divider',
                  bgcolor: m.isRead ? undefined : 'action.hover',
                }}
                data-testid="message"
              >
                {m.title && (
                  <Typography variant="subtitle2" component="h3">
                    {m.title}
                  </Typography>
                )}
                <Typography
                  variant="body2"
                  sx={{ whiteSpace: 'pre-line', mt: 0.5, overflowWrap: 'anywhere' }}
                >
                  {messageTextParts(m.text, window.location.origin).map((part, k) =>
                    part.path ? (
                      <Link
                        key={k}
                        component={RouterLink}
                        to={part.path}
                        onClick={() => setOpen(false)}
                        data-testid="message-link"
                      >
                        {part.label ?? part.text}
                      </Link>
                    ) : (
                      <Fragment key={k}>{part.text}</Fragment>
                    ),
                  )}
                </Typography>
                <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 1 }}>
                  {m.isRead ? (
                    <Typography variant="caption" color="text.secondary">
                      Read
                    </Typography>
                  ) : (
                    <Button
                      size="small"
                      onClick={() => markAsRead.mutate(m.id)}
                      disabled={markAsRead.isPending && markAsRead.variables === m.id}
                    >
                      Mark as read
                    </Button>
                  )}
                </Stack>
              </Box>
            ))}
          </Paper>
        </ClickAwayListener>
      </Popper>
    </>
  );
}
