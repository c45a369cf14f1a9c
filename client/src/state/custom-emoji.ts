import type { CustomEmoji } from '@im/protocol';
import { useEffect } from 'react';
import { http } from '../api/http.ts';
import { useStore } from './store.ts';
import { accountMap, accountStore } from './account-state.ts';
import { api, apiPath, type ResponseOf } from '../api/api.ts';

/** groupId → the group's custom emoji by name (undefined: not asked yet). */
export const useCustomEmoji = accountStore<{ byGroup: Record<string, CustomEmoji[] | undefined> }>(
  'custom emoji',
  () => ({
    byGroup: {},
  }),
);

const loading = accountMap<string, Promise<void>>('custom emoji loading');

const put = (groupId: string, list: CustomEmoji[]) =>
  useCustomEmoji.setState((s) => ({
    byGroup: { ...s.byGroup, [groupId]: [...list].sort((a, b) => a.name.localeCompare(b.name)) },
  }));

/** GET /api/groups/:id/emoji, once per group unless `force` (settings reload after a change). */
export function loadCustomEmoji(groupId: string, force = false): Promise<void> {
  if (!force && useCustomEmoji.getState().byGroup[groupId]) return Promise.resolve();
  let request = loading.get(groupId);
  if (!request || force) {
    request = api
      .call('group.listEmoji', { groupId })
      .then((list) => put(groupId, list))
      .catch(() => undefined)
      .finally(() => loading.delete(groupId));
    loading.set(groupId, request);
  }
  return request;
}

/** POST /api/groups/:id/emoji (admins): multipart `name` + `file`. */
export async function uploadCustomEmoji(groupId: string, name: string, file: Blob): Promise<CustomEmoji> {
  const form = new FormData();
  form.append('name', name);
  form.append('file', file, 'emoji');
  const emoji = await http.post<ResponseOf<'group.uploadEmoji'>>(apiPath('group.uploadEmoji', { groupId }), form);
  put(groupId, [...(useCustomEmoji.getState().byGroup[groupId] ?? []).filter((e) => e.name !== name), emoji]);
  return emoji;
}

export async function removeCustomEmoji(groupId: string, name: string): Promise<void> {
  await api.call('group.removeEmoji', { groupId, name });
  put(
    groupId,
    (useCustomEmoji.getState().byGroup[groupId] ?? []).filter((e) => e.name !== name),
  );
}

/** The group a converse is a panel of (undefined for a DM, or one not loaded). */
export const useGroupIdOf = (converseId: string | undefined): string | undefined =>
  useStore((s) => {
    if (!converseId) return undefined;
    for (const id of s.groupOrder) {
      if (s.groups[id]?.panels.some((p) => p.converseId === converseId)) return id;
    }
    return undefined;
  });

const NONE: CustomEmoji[] = [];

/** The custom emoji usable in a group (loaded on first use); empty for none or a DM. */
export function useGroupEmoji(groupId: string | undefined): CustomEmoji[] {
  const list = useCustomEmoji((s) => (groupId ? s.byGroup[groupId] : undefined));
  useEffect(() => {
    if (groupId) void loadCustomEmoji(groupId);
  }, [groupId]);
  return list ?? NONE;
}
