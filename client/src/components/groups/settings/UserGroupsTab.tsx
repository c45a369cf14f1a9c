import { formatList } from '../../messages/format.ts';
import { useTranslation } from 'react-i18next';
import './user-groups.css';
import { USER_GROUP_HANDLE_PATTERN, type Group, type UserGroup } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../../../api/errors.ts';
import { loadMembers } from '../../../state/groups.ts';
import { hasPermission } from '../../../state/permissions.ts';
import { useStore } from '../../../state/store.ts';
import {
  createUserGroup,
  deleteUserGroup,
  loadUserGroups,
  updateUserGroup,
  useUserGroups,
  type UserGroupDraft,
} from '../../../state/user-groups.ts';
import { displayName } from '../../../state/users.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';
import { whenConfirmed } from '../../common/confirm.ts';

const HANDLE = new RegExp(USER_GROUP_HANDLE_PATTERN);
const EMPTY: UserGroupDraft = { handle: '', name: '', memberIds: [] };

/**
 * A group's user groups: `@handle` in a message mentions each of their
 * members. Every member sees them; holders of mentionAll (owner and admins
 * hold it) make, edit and delete them.
 */
export function UserGroupsTab(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const list = useUserGroups((s) => s.byGroup[group.id]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const manager = hasPermission(group, 'mentionAll');
  useEffect(() => {
    loadUserGroups(group.id).catch((err: unknown) => setLoadError(describeError(err)));
    void loadMembers(group.id);
  }, [group.id]);
  if (!list)
    return loadError ? <ErrorLine error={loadError} /> : <p className="hint">{t('groups.userGroups.loading')}</p>;
  return (
    <div className="user-groups-tab">
      {manager && (
        <UserGroupForm
          groupId={group.id}
          initial={EMPTY}
          label={t('groups.userGroups.new')}
          submitLabel={t('groups.userGroups.create')}
        />
      )}
      {list.length === 0 && <p className="hint">{t('groups.userGroups.none')}</p>}
      <ul className="mod-list" aria-label={t('groups.userGroups')}>
        {list.map((ug) =>
          editing === ug.id ? (
            <li key={ug.id}>
              <UserGroupForm
                groupId={group.id}
                initial={ug}
                label={t('groups.userGroups.edit', { handle: ug.handle })}
                submitLabel={t('common.save')}
                onDone={() => setEditing(null)}
              />
            </li>
          ) : (
            <UserGroupRow key={ug.id} groupId={group.id} userGroup={ug} manager={manager} onEdit={setEditing} />
          ),
        )}
      </ul>
    </div>
  );
}

function UserGroupRow(props: {
  groupId: string;
  userGroup: UserGroup;
  manager: boolean;
  onEdit: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { userGroup: ug } = props;
  const users = useStore((s) => s.users);
  const { busy, error, run } = useAction();
  const names = formatList(ug.memberIds.map((id) => displayName(users[id])));
  return (
    <li data-testid="user-group" aria-label={`@${ug.handle}`}>
      <div>
        <strong>@{ug.handle}</strong> {ug.name}
        <div className="hint">{ug.memberIds.length === 0 ? t('groups.userGroups.noMembers') : names}</div>
        <ErrorLine error={error} />
      </div>
      {props.manager && (
        <div className="row-actions">
          <button type="button" onClick={() => props.onEdit(ug.id)}>
            {t('scheduled.row.edit')}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              whenConfirmed({ message: 'shell.confirm.deleteUserGroup', values: { handle: ug.handle } }, () =>
                run(() => deleteUserGroup(props.groupId, ug.id)),
              );
            }}
          >
            {t('common.delete')}
          </button>
        </div>
      )}
    </li>
  );
}

/** Handle, name and members (picked from the group's loaded members). */
function UserGroupForm(props: {
  groupId: string;
  initial: UserGroupDraft & { id?: string };
  label: string;
  submitLabel: string;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const members = useStore((s) => s.members[props.groupId]?.items);
  const [handle, setHandle] = useState(props.initial.handle);
  const [name, setName] = useState(props.initial.name);
  const [memberIds, setMemberIds] = useState<string[]>(props.initial.memberIds);
  const [filter, setFilter] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setInvalid(null);
    const draft = { handle: handle.trim().toLowerCase(), name: name.trim(), memberIds };
    if (!HANDLE.test(draft.handle)) return setInvalid(t('groups.userGroups.handle.rule'));
    if (!draft.name) return setInvalid(t('groups.userGroups.name.missing'));
    const id = props.initial.id;
    const done = await run(() =>
      id ? updateUserGroup(props.groupId, id, draft) : createUserGroup(props.groupId, draft),
    );
    if (!done) return;
    if (!id) {
      setHandle('');
      setName('');
      setMemberIds([]);
    }
    props.onDone?.();
  };

  const q = filter.trim().toLowerCase();
  const shown = (members ?? []).filter(
    (m) => !q || m.user.username.startsWith(q) || m.user.nickname.toLowerCase().includes(q),
  );
  const toggle = (id: string, on: boolean) =>
    setMemberIds((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)));

  return (
    <form className="user-group-form" aria-label={props.label} onSubmit={(e) => void submit(e)}>
      <label>
        {t('groups.userGroups.handle')}
        <input
          value={handle}
          aria-label={t('groups.userGroups.handle')}
          placeholder={t('groups.userGroups.handle.placeholder')}
          maxLength={32}
          onChange={(e) => setHandle(e.target.value.toLowerCase())}
        />
      </label>
      <label>
        {t('groups.userGroups.name')}
        <input
          value={name}
          aria-label={t('groups.userGroups.name')}
          placeholder={t('groups.userGroups.name.placeholder')}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <fieldset>
        <legend>{t('groups.userGroups.members', { count: memberIds.length })}</legend>
        <input
          type="search"
          aria-label={t('groups.userGroups.find')}
          placeholder={t('groups.userGroups.find')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <ul className="user-group-members">
          {shown.map((m) => (
            <li key={m.user.id}>
              <label>
                <input
                  type="checkbox"
                  checked={memberIds.includes(m.user.id)}
                  onChange={(e) => toggle(m.user.id, e.target.checked)}
                />
                {displayName(m.user)} <span className="hint">@{m.user.username}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <ErrorLine error={invalid ?? error} />
      <div className="row-actions">
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
        {props.onDone && (
          <button type="button" onClick={props.onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
