import '../components/chat.css';
import type { ChatHistory, ChatMessageWire } from '@bourse/shared/api';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrivateChannel } from '../../../api/ws.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { IconImage } from '../../../shared/ui/icons.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { getChat } from '../api/get-chat.ts';
import { markChatRead } from '../api/mark-chat-read.ts';
import { chatImageUrl, sendChatImage } from '../api/send-chat-image.ts';
import { sendChatMessage } from '../api/send-chat-message.ts';

const CHAT_KEY = ['support', 'chat'] as const;
const MESSAGE_MAX = 2000;

/** Adds a message to the newest page unless it is there already (an answer and a push may both bring it). */
function withMessage(
  data: InfiniteData<ChatHistory, number | undefined> | undefined,
  message: ChatMessageWire,
) {
  if (!data) return data;
  if (data.pages.some((page) => page.messages.some((m) => m.id === message.id))) return data;
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, messages: [message, ...first.messages] }, ...rest] };
}

/**
 * `/User/contactKehu`: the built-in support chat. Messages persist; staff answers arrive over the
 * private `chat` channel of /ws without reloading; texts and pictures; older messages on scroll up.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const chat = useInfiniteQuery({
    queryKey: CHAT_KEY,
    queryFn: ({ pageParam, signal }) => getChat(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.has_more ? last.messages.at(-1)?.id : undefined),
  });
  const markRead = useMutation({
    mutationFn: markChatRead,
  });
  const add = (message: ChatMessageWire) =>
    queryClient.setQueryData<InfiniteData<ChatHistory, number | undefined>>(CHAT_KEY, (data) =>
      withMessage(data, message),
    );
  const send = useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (answer) => {
      add(answer.data);
      setText('');
    },
  });
  const sendImage = useMutation({
    mutationFn: sendChatImage,
    onSuccess: (answer) => add(answer.data),
  });

  usePrivateChannel('chat', (data) => {
    const frame = data as { message?: ChatMessageWire };
    if (!frame.message) {
      // why: a snapshot follows every (re)subscription; answers sent while the link was down are fetched.
      if (!chat.isFetching) void chat.refetch();
      return;
    }
    add(frame.message);
    if (frame.message.sender === 'staff') markRead.mutate();
  });

  const messages = [...(chat.data?.pages.flatMap((page) => page.messages) ?? [])].reverse();
  const newestId = messages.at(-1)?.id;
  const { mutate: read } = markRead;
  const hasUnread = (chat.data?.pages[0]?.unread ?? 0) > 0;
  useEffect(() => {
    if (hasUnread) read();
  }, [hasUnread, read]);
  useEffect(() => {
    if (newestId !== undefined) bottom.current?.scrollIntoView({ block: 'end' });
  }, [newestId]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = text.trim();
    if (!body || send.isPending) return;
    if ([...body].length > MESSAGE_MAX) return void showToast(t('support.tooLong', { max: MESSAGE_MAX }));
    send.mutate(body);
  }

  return (
    <Page title={t('support.title')}>
      <div className="chat-page">
        {chat.isPending ? (
          <ListSkeleton rows={4} />
        ) : chat.isError ? (
          <ErrorState message={chat.error.message} onRetry={() => chat.refetch()} />
        ) : (
          <div className="chat-thread" data-testid="chat-thread">
            {chat.hasNextPage && (
              <Button
                size="small"
                fill="none"
                loading={chat.isFetchingNextPage}
                onClick={() => void chat.fetchNextPage()}
              >
                {t('support.older')}
              </Button>
            )}
            <p className="chat-welcome">{t('support.welcome')}</p>
            {messages.map((m) => (
              <div
                key={m.id}
                className={m.sender === 'user' ? 'chat-bubble-row is-mine' : 'chat-bubble-row'}
                data-testid={`chat-message-${m.sender}`}
              >
                <div className="chat-bubble">
                  {m.image ? <img src={chatImageUrl(m.image)} alt={t('support.picture')} /> : m.body}
                  <div className="chat-meta">
                    {m.sender === 'staff' ? `${m.staff_name ?? t('support.agent')} · ` : ''}
                    {formatTime(m.created_at)}
                  </div>
                </div>
              </div>
            ))}
            <div ref={bottom} />
          </div>
        )}
        <form className="chat-composer" onSubmit={submit}>
          <label className="chat-attach" aria-label={t('support.attach')}>
            <IconImage />
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) sendImage.mutate(file);
                event.target.value = '';
              }}
              data-testid="chat-attach"
            />
          </label>
          <textarea
            value={text}
            rows={1}
            maxLength={MESSAGE_MAX}
            placeholder={t('support.placeholder')}
            aria-label={t('support.placeholder')}
            onChange={(event) => setText(event.target.value)}
            data-testid="chat-input"
          />
          <Button
            type="submit"
            color="primary"
            loading={send.isPending}
            disabled={!text.trim()}
            data-testid="chat-send"
          >
            {t('support.send')}
          </Button>
        </form>
      </div>
    </Page>
  );
}
