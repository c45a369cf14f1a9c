import { ComposerEmojiButton } from '../emoji/ComposerEmojiButton.tsx';
import type { Message, PublicUser } from '@im/protocol';
import {
  forwardRef,
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
  const commandMenuId = useId();
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
        const error = `Files can be at most ${limitText(uploadLimit)}`;
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
    props.onCancelReply();
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

  // The open suggestion list, if any: members after `@`, or commands after a leading `/`.
  const menu =
    candidates.length > 0
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
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    const value = event.target.value;
    change(value);
    const caret = event.target.selectionStart ?? value.length;
    setMention(mentionQueryAt(value, caret));
    const query = commandQueryAt(value, caret);
    setCommand(query === null ? null : { query, caret });
    setSelected(0);
    if (value.trim()) props.onTyping();
  };

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
          Replying to <strong>{displayName(props.users[props.replyTo.authorId])}</strong>:{' '}
          <span className="excerpt">{props.replyTo.content.slice(0, 120)}</span>
          <button type="button" className="icon-button" aria-label="Cancel reply" onClick={props.onCancelReply}>
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Attachments">
          {uploads.map((u) => (
            <li key={u.localId} className={`upload ${u.status}`} data-testid="upload">
              <span className="file-name">{u.name}</span> <span className="file-size">{formatSize(u.size)}</span>
              {u.status === 'uploading' && (
                <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`}>
                  {Math.round(u.progress * 100)}%
                </progress>
              )}
              {u.status === 'failed' && <span className="error">{u.error}</span>}
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${u.name}`}
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
        <ul className="mention-menu" role="listbox" aria-label="Mention a member">
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
      {commandChoices.length > 0 && (
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
          aria-label="Attach files"
          title="Attach files"
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
          aria-label={props.label ?? 'Message'}
          placeholder={props.placeholder}
          value={text}
          rows={1}
          disabled={props.disabled}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          aria-controls={commandChoices.length > 0 ? commandMenuId : undefined}
          aria-activedescendant={
            commandChoices.length > 0 ? `${commandMenuId}-${Math.min(selected, commandChoices.length - 1)}` : undefined
          }
          onBlur={() => {
            setMention(null);
            setCommand(null);
          }}
        />
        {props.onPoll && (
          <button
            type="button"
            className="icon-button"
            aria-label="Poll"
            title="Poll"
            disabled={props.disabled}
            onClick={props.onPoll}
          >
            <Icon name="poll" />
          </button>
        )}
        <ComposerEmojiButton disabled={props.disabled} onInsert={insertEmoji} />
        {props.onSendLater && <SendLaterButton disabled={!canSend} onPick={send} />}
        <button type="button" className="send" onClick={() => send()} disabled={!canSend} aria-label="Send">
          <Icon name="send" />
        </button>
      </div>
      {tooLong && (
        <div className="error" role="alert">
          {text.length} / {MAX_CONTENT} characters: too long to send.
        </div>
      )}
    </div>
  );
});
