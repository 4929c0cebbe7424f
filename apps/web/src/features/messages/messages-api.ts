import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@portal/contracts/messages';
import { messageFormSchema } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { messageKeys } from '../../lib/queries/keys';

export { messageFormSchema };

/** GET messages without isActive: every message (the admin lists). */
export const allMessagesQuery = () =>
  queryOptions({
    queryKey: messageKeys.list(),
    queryFn: ({ signal }) => apiRequest<Message[]>('messages', { signal }),
  });

/** POST messages with the compose form's values. */
export function useCreateMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: unknown) =>
      apiRequest<Message>('messages', { method: 'POST', body: messageFormSchema.parse(values) }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** DELETE messages/{id}. */
export function useDeleteMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`messages/${encodeURIComponent(id)}`, { method: 'DELETE', responseType: 'none' }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** PUT messages/{id}: the edited form; the message keeps its id and, unless its words changed, who read it. */
export function useUpdateMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string; values: unknown }) =>
      apiRequest<Message>(`messages/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: messageFormSchema.parse(values),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: messageKeys.all }),
  });
}
