import { ComposerEmojiButton } from '../emoji/ComposerEmojiButton.tsx';
import { CustomEmojiContext } from '../emoji/CustomEmojiContext.tsx';
import { ShortcodeMenu } from '../emoji/ShortcodeMenu.tsx';
import {
  choiceText,
  replaceClosedShortcode,
  shortcodeChoices,
  shortcodeQueryAt,
  type Shortcode,
  type ShortcodeChoice,
} from '../emoji/shortcode-query.ts';
import { Trans, useTranslation } from 'react-i18next';
import type { Message, PublicUser } from '@im/protocol';
import {
  forwardRef,
  useContext,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from 'react';
import { describeError } from '../../api/errors.ts';
import type { FileInfo, UploadHandle } from '../../api/upload.ts';
import type { CommandSuggestion } from '../../state/commands.ts';
import { limitText, useUploadLimit } from '../../state/upload-limit.ts';
import { displayName } from '../../state/users.ts';
import { formatSize } from './format.ts';
import { Icon } from '../common/Icon.tsx';
import { insertMention, mentionCandidates, mentionQueryAt } from './mentions.ts';
import { commandCandidates, commandQueryAt, insertCommand } from './commands/command-query.ts';
import { CommandMenu } from './commands/CommandMenu.tsx';
import { SendLaterButton } from '../scheduled/SendLaterButton.tsx';

export const MAX_CONTENT = 4000;
const MAX_ATTACHMENTS = 10;

export type Uploader = (file: File, onProgress: (fraction: number) => void) => UploadHandle;

interface Upload {
  localId: number;
  name: string;
  size: number;
  progress: number;
  status: 'uploading' | 'done' | 'failed';
  info?: FileInfo;
  error?: string;
  abort: () => void;
}

export interface ComposerProps {
  placeholder: string;
  /** The input's accessible name ("Message" unless given: the thread pane's is "Reply in thread"). */
  label?: string;
  members: readonly PublicUser[];
  /** What `/` offers: the group's slash commands and the built-in ones. */
  commands?: readonly CommandSuggestion[];
  me: PublicUser;
  replyTo: Message | null;
  users: Record<string, PublicUser>;
  disabled?: boolean;
  /** Why the composer is disabled (a mute and its end), shown above the input. */
  notice?: string;
  initialDraft?: string;
  onDraftChange?: (draft: string) => void;
  onCancelReply: () => void;
  onSend: (content: string, extra: { attachments: string[]; replyTo?: string }) => void;
  /** "Send later": the same message, sent at `at` (offered when given). */
  onSendLater?: (content: string, extra: { attachments: string[]; replyTo?: string }, at: Date) => void;
  onTyping: () => void;
  upload: Uploader;
  /** "Poll": opens the poll form (absent: not offered). */
  onPoll?: () => void;
  /** Up-arrow in the empty composer: edit my last message here (false: there is none). */
  onEditLast?: () => boolean;
}

export interface ComposerHandle {
  addFiles(files: File[]): void;
  focus(): void;
}

let nextLocalId = 0;

/**
 * Multi-line input: Enter sends, Shift+Enter breaks the line; `@` offers the
 * members and a leading `/` the commands (arrows pick, Enter or Tab
 * completes, Escape closes); pasted or dropped files upload at once with
 * their progress shown and go with the next send.
 */
export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer(props, ref) {
  const [text, setText] = useState(props.initialDraft ?? '');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [command, setCommand] = useState<{ query: string; caret: number } | null>(null);
  const [shortcode, setShortcode] = useState<{ start: number; query: string } | null>(null);
  // The standard emoji's shortcodes: a chunk of its own, fetched once a `:` is typed.
  const [shortcodes, setShortcodes] = useState<readonly Shortcode[]>([]);
  const wantsShortcodes = text.includes(':');
  useEffect(() => {
    if (!wantsShortcodes || shortcodes.length > 0) return;
    let live = true;
    void import('../emoji/shortcodes.ts').then((m) => live && setShortcodes(m.SHORTCODES));
    return () => {
      live = false;
    };
  }, [wantsShortcodes, shortcodes.length]);
  const customEmoji = useContext(CustomEmojiContext);
  const { t } = useTranslation();
  const commandMenuId = useId();
  const emojiMenuId = useId();
  const [selected, setSelected] = useState(0);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploadLimit = useUploadLimit();
  // Where the caret goes once the text a mention was inserted into is on screen.
  const caretAfterCommit = useRef<number | null>(null);

  // Before the browser handles the next key: deferring this (to a frame) let
  // keys typed in between land before the caret moved back, scrambling them.
  useLayoutEffect(() => {
    const caret = caretAfterCommit.current;
    if (caret === null || !input.current) return;
    caretAfterCommit.current = null;
    input.current.focus();
    input.current.setSelectionRange(caret, caret);
  });

  const candidates = mention ? mentionCandidates(props.members, mention.query, props.me.id) : [];
  const commandChoices = command && props.commands ? commandCandidates(props.commands, command.query) : [];
  const emojiChoices = shortcode ? shortcodeChoices(shortcodes, customEmoji.values(), shortcode.query) : [];
  const uploading = uploads.some((u) => u.status === 'uploading');
  const ready = uploads.filter((u) => u.status === 'done' && u.info);
  const tooLong = text.length > MAX_CONTENT;
  const canSend = !props.disabled && !uploading && !tooLong && (text.trim().length > 0 || ready.length > 0);

  const change = (value: string) => {
    setText(value);
    props.onDraftChange?.(value);
  };

  const addFiles = (files: File[]) => {
    if (props.disabled) return;
    const room = MAX_ATTACHMENTS - uploads.length;
    for (const file of files.slice(0, Math.max(0, room))) {
      nextLocalId += 1;
      const localId = nextLocalId;
      // Too big for the server: said at once, instead of after sending it all to hear so.
      if (uploadLimit !== undefined && file.size > uploadLimit) {
        const error = t('composer.tooBig', { limit: limitText(uploadLimit) });
        const refused: Upload = {
          localId,
          name: file.name,
          size: file.size,
          progress: 0,
          status: 'failed',
          error,
          abort: () => undefined,
        };
        setUploads((list) => [...list, refused]);
        continue;
      }
      const update = (patch: Partial<Upload>) =>
        setUploads((list) => list.map((u) => (u.localId === localId ? { ...u, ...patch } : u)));
      const handle = props.upload(file, (progress) => update({ progress }));
      setUploads((list) => [
        ...list,
        { localId, name: file.name, size: file.size, progress: 0, status: 'uploading', abort: handle.abort },
      ]);
      handle.promise.then(
        (info) => update({ status: 'done', progress: 1, info }),
        (err: unknown) => update({ status: 'failed', error: describeError(err) }),
      );
    }
  };

  useImperativeHandle(ref, () => ({ addFiles, focus: () => input.current?.focus() }));

  const send = (later?: Date) => {
    if (!canSend) return;
    const attachments = ready.map((u) => u.info!.id);
    const content = text.trim().length > 0 ? text : ready.map((u) => u.info!.name).join(', ');
    const extra = { attachments, ...(props.replyTo ? { replyTo: props.replyTo.id } : {}) };
    if (later) props.onSendLater?.(content, extra, later);
    else props.onSend(content, extra);
    change('');
    setUploads((list) => list.filter((u) => u.status === 'uploading'));
    setMention(null);
    setCommand(null);
    setShortcode(null);
    props.onCancelReply();
    // Sent from the Send button or a menu: back in the composer for the next message.
    input.current?.focus();
  };

  /** An emoji (Unicode, or `:name:` of a custom one) replaces the selection, the caret after it. */
  const insertEmoji = (emoji: string) => {
    const start = input.current?.selectionStart ?? text.length;
    const end = input.current?.selectionEnd ?? start;
    caretAfterCommit.current = start + emoji.length;
    change(text.slice(0, start) + emoji + text.slice(end));
  };

  const choose = (user: PublicUser) => {
    if (!mention) return;
    const next = insertMention(text, mention, user.username);
    caretAfterCommit.current = next.caret;
    change(next.text);
    setMention(null);
  };

  const chooseCommand = (picked: CommandSuggestion) => {
    if (!command) return;
    const next = insertCommand(text, command.caret, picked.trigger);
    caretAfterCommit.current = next.caret;
    change(next.text);
    setCommand(null);
  };

  const chooseEmoji = (picked: ShortcodeChoice) => {
    if (!shortcode) return;
    const end = shortcode.start + shortcode.query.length + 1;
    const inserted = choiceText(picked);
    caretAfterCommit.current = shortcode.start + inserted.length;
    change(text.slice(0, shortcode.start) + inserted + text.slice(end));
    setShortcode(null);
  };

  // The open suggestion list, if any: members after `@`, commands after a leading `/`, emoji after `:`.
  const menu =
    emojiChoices.length > 0
      ? {
          count: emojiChoices.length,
          choose: (i: number) => chooseEmoji(emojiChoices[i]!),
          close: () => setShortcode(null),
        }
      : candidates.length > 0
        ? {
            count: candidates.length,
            choose: (i: number) => choose(candidates[i]!),
            close: () => setMention(null),
          }
        : commandChoices.length > 0
          ? {
              count: commandChoices.length,
              choose: (i: number) => chooseCommand(commandChoices[i]!),
              close: () => setCommand(null),
            }
          : null;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (menu) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setSelected((i) => (i + step + menu.count) % menu.count);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        menu.choose(Math.min(selected, menu.count - 1));
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        menu.close();
        return;
      }
    }
    if (event.key === 'Escape' && props.replyTo) props.onCancelReply();
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.key === 'ArrowUp' && plain && text === '' && props.onEditLast?.()) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    let value = event.target.value;
    let caret = event.target.selectionStart ?? value.length;
    // `:rocket:` and a space: the emoji itself.
    const replaced = replaceClosedShortcode(value, caret, shortcodes);
    if (replaced) {
      value = replaced.text;
      caret = replaced.caret;
      caretAfterCommit.current = caret;
    }
    change(value);
    setShortcode(shortcodeQueryAt(value, caret));
    setMention(mentionQueryAt(value, caret));
    const query = commandQueryAt(value, caret);
    setCommand(query === null ? null : { query, caret });
    setSelected(0);
    if (value.trim()) props.onTyping();
  };

  // The list the arrows move in, named for screen readers (aria-activedescendant).
  const activeList =
    emojiChoices.length > 0
      ? { id: emojiMenuId, count: emojiChoices.length }
      : commandChoices.length > 0
        ? { id: commandMenuId, count: commandChoices.length }
        : null;

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    addFiles(files);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    // The conversation around takes drops too (anywhere in the panel): one drop, one attachment.
    event.stopPropagation();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  return (
    <div
      className={dragging ? 'composer dragging' : 'composer'}
      onDragOver={(e) => {
        if ([...e.dataTransfer.types].includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {props.replyTo && (
        <div className="replying" data-testid="replying">
          <Trans
            i18nKey="composer.replyingTo"
            values={{ name: displayName(props.users[props.replyTo.authorId]) }}
            components={{ strong: <strong /> }}
          />{' '}
          <span className="excerpt">{props.replyTo.content.slice(0, 120)}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={t('composer.cancelReply')}
            onClick={props.onCancelReply}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {uploads.length > 0 && (
        <ul className="uploads" aria-label={t('composer.attachments')}>
          {uploads.map((u) => (
            <li key={u.localId} className={`upload ${u.status}`} data-testid="upload">
              <span className="file-name">{u.name}</span> <span className="file-size">{formatSize(u.size)}</span>
              {u.status === 'uploading' && (
                <progress max={1} value={u.progress} aria-label={t('composer.uploading', { name: u.name })}>
                  {Math.round(u.progress * 100)}%
                </progress>
              )}
              {u.status === 'failed' && <span className="error">{u.error}</span>}
              <button
                type="button"
                className="icon-button"
                aria-label={t('composer.remove', { name: u.name })}
                onClick={() => {
                  if (u.status === 'uploading') u.abort();
                  setUploads((list) => list.filter((x) => x.localId !== u.localId));
                }}
              >
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {candidates.length > 0 && (
        <ul className="mention-menu" role="listbox" aria-label={t('composer.mention')}>
          {candidates.map((user, i) => (
            <li
              key={user.id}
              role="option"
              aria-selected={i === selected}
              className={i === selected ? 'selected' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(user);
              }}
            >
              <strong>{user.nickname}</strong> <span className="username">@{user.username}</span>
            </li>
          ))}
        </ul>
      )}
      {emojiChoices.length > 0 && (
        <ShortcodeMenu
          id={emojiMenuId}
          choices={emojiChoices}
          selected={Math.min(selected, emojiChoices.length - 1)}
          onChoose={chooseEmoji}
        />
      )}
      {commandChoices.length > 0 && emojiChoices.length === 0 && (
        <CommandMenu
          id={commandMenuId}
          candidates={commandChoices}
          selected={Math.min(selected, commandChoices.length - 1)}
          onChoose={chooseCommand}
        />
      )}
      {props.notice && (
        <div className="composer-notice" role="status" data-testid="composer-notice">
          {props.notice}
        </div>
      )}
      <div className="composer-row">
        {/* A real button (a label is not reachable by Tab) that opens the hidden file chooser. */}
        <button
          type="button"
          className="icon-button attach"
          aria-label={t('composer.attach')}
          title={t('composer.attach')}
          disabled={props.disabled}
          onClick={() => fileInput.current?.click()}
        >
          <Icon name="paperclip" />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          disabled={props.disabled}
          data-testid="file-input"
          onChange={(e) => {
            addFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <textarea
          ref={input}
          aria-label={props.label ?? t('composer.message')}
          placeholder={props.placeholder}
          value={text}
          rows={1}
          disabled={props.disabled}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          aria-controls={activeList?.id}
          aria-activedescendant={
            activeList ? `${activeList.id}-${Math.min(selected, activeList.count - 1)}` : undefined
          }
          onBlur={() => {
            setMention(null);
            setCommand(null);
            setShortcode(null);
          }}
        />
        {props.onPoll && (
          <button
            type="button"
            className="icon-button"
            aria-label={t('composer.poll')}
            title={t('composer.poll')}
            disabled={props.disabled}
            onClick={props.onPoll}
          >
            <Icon name="poll" />
          </button>
        )}
        <ComposerEmojiButton disabled={props.disabled} onInsert={insertEmoji} />
        {props.onSendLater && <SendLaterButton disabled={!canSend} onPick={send} />}
        <button
          type="button"
          className="send"
          onClick={() => send()}
          disabled={!canSend}
          aria-label={t('composer.send')}
        >
          <Icon name="send" />
        </button>
      </div>
      {tooLong && (
        <div className="error" role="alert">
          {t('composer.tooLong', { length: text.length, max: MAX_CONTENT })}
        </div>
      )}
    </div>
  );
});
