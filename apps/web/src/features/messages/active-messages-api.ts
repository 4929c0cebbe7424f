import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@portal/contracts/messages';
import { MESSAGES } from '@portal/contracts/rules';
import { apiRequest } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { messageKeys } from '../../lib/queries/keys';

/** GET messages?isActive=true: the caller's active messages with their read mark. */
export const activeMessagesQuery = () =>
  queryOptions({
    queryKey: messageKeys.active(),
    queryFn: ({ signal }) => apiRequest<Message[]>('messages', { query: { isActive: true }, signal }),
  });

/** POST messages/{id}/mark-as-read; failure shows "Error marking message as read.". */
export function useMarkAsRead() {
  const client = useQueryClient();
  const { error } = useNotify();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`messages/${encodeURIComponent(id)}/mark-as-read`, {
        method: 'POST',
        responseType: 'none',
      }),
    onSuccess: (_data, id) =>
      client.setQueryData<Message[]>(activeMessagesQuery().queryKey, (list) =>
        list?.map((m) => (m.id === id ? { ...m, isRead: true } : m)),
      ),
    onError: (cause) => error(MESSAGES.MESSAGE_MARK_READ_ERROR, cause),
  });
}
