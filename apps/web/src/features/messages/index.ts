/** What the shell uses of the messages (a feature's public entry): the top bar's bell and the start's first call. */
export { MessageBell } from './MessageBell';
export { activeMessagesQuery } from './active-messages-api';
