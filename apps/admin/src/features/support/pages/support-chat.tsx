import type { AdminSupportConversation, ChatMessageWire } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Image,
  Input,
  List,
  Row,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../../shared/format.ts';
import { fetchChatImage } from '../api/fetch-chat-image.ts';
import { fetchConversation } from '../api/fetch-conversation.ts';
import { listConversations } from '../api/list-conversations.ts';
import { reply as sendReply } from '../api/reply.ts';

// why: the console polls; a reply or a new conversation shows within this time without a reload.
const POLL_MS = 3000;

function ChatImage({ name }: { name: string }) {
  const { t } = useTranslation();
  const image = useQuery({
    queryKey: ['support', 'image', name],
    queryFn: () => fetchChatImage(name),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return <Image src={image.data?.dataUrl} alt={t('support.picture')} width={180} />;
}

function Message({ message }: { message: ChatMessageWire }) {
  const isStaff = message.sender === 'staff';
  return (
    <div style={{ display: 'flex', justifyContent: isStaff ? 'flex-end' : 'flex-start', margin: '6px 0' }}>
      <div
        data-testid={`console-message-${message.sender}`}
        style={{
          maxWidth: '70%',
          padding: '8px 12px',
          borderRadius: 10,
          background: isStaff ? '#1677ff' : '#f0f0f0',
          color: isStaff ? '#fff' : 'inherit',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {message.image ? <ChatImage name={message.image} /> : message.body}
        <div style={{ fontSize: 11, opacity: 0.7, marginTop: 4 }}>
          {isStaff && message.staff_name ? `${message.staff_name} · ` : ''}
          {formatTime(message.created_at)}
        </div>
      </div>
    </div>
  );
}

/**
 * The support chat console: conversations (unread first), the chosen one's messages with the
 * user's context (UID, verification, recent deposits and withdrawals), and the reply box.
 * Opening a conversation marks it read; replies reach the user's app at once.
 */
export function SupportChatPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [openId, setOpenId] = useState<number | null>(null);
  const [text, setText] = useState('');
  const list = useQuery({
    queryKey: ['support', 'conversations'],
    queryFn: listConversations,
    refetchInterval: POLL_MS,
  });
  const thread = useQuery({
    queryKey: ['support', 'thread', openId],
    enabled: openId !== null,
    queryFn: () => fetchConversation(openId ?? 0),
    refetchInterval: POLL_MS,
  });
  const reply = useMutation({
    mutationFn: (body: string) => sendReply(openId ?? 0, body),
    onSuccess: () => {
      setText('');
      void client.invalidateQueries({ queryKey: ['support'] });
    },
    onError: (error) => message.error(error.message),
  });
  const data = thread.data;

  return (
    <Row gutter={16}>
      <Col span={7}>
        <Card size="small" styles={{ body: { padding: 0 } }}>
          {list.error && <Alert type="warning" title={list.error.message} />}
          <List<AdminSupportConversation>
            dataSource={list.data?.list ?? []}
            locale={{ emptyText: t('support.empty') }}
            renderItem={(c) => (
              <List.Item
                onClick={() => setOpenId(c.id)}
                style={{
                  cursor: 'pointer',
                  padding: '10px 12px',
                  background: c.id === openId ? '#e6f4ff' : undefined,
                }}
                data-testid={`conversation-${c.userId}`}
              >
                <List.Item.Meta
                  title={
                    <Space>
                      <span>{c.username}</span>
                      {c.unread > 0 ? <Badge count={c.unread} size="small" /> : null}
                    </Space>
                  }
                  description={
                    <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
                      {c.previewIsImage ? `[${t('support.picture')}]` : c.preview}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col span={11}>
        <Card size="small" title={data ? `${data.user.username} #${data.user.id}` : t('support.select')}>
          {!data ? (
            <Empty description={t('support.select')} />
          ) : (
            <>
              <div
                style={{ height: 460, overflowY: 'auto', display: 'flex', flexDirection: 'column-reverse' }}
              >
                <div>
                  {[...data.messages].reverse().map((m) => (
                    <Message key={m.id} message={m} />
                  ))}
                </div>
              </div>
              <Space.Compact style={{ width: '100%', marginTop: 12 }}>
                <Input.TextArea
                  value={text}
                  autoSize={{ minRows: 1, maxRows: 4 }}
                  maxLength={2000}
                  placeholder={t('support.replyPlaceholder')}
                  onChange={(event) => setText(event.target.value)}
                  onPressEnter={(event) => {
                    if (!event.shiftKey && text.trim()) {
                      event.preventDefault();
                      reply.mutate(text.trim());
                    }
                  }}
                  data-testid="console-reply"
                />
                <Button
                  type="primary"
                  loading={reply.isPending}
                  disabled={!text.trim()}
                  onClick={() => reply.mutate(text.trim())}
                  data-testid="console-send"
                >
                  {t('support.send')}
                </Button>
              </Space.Compact>
            </>
          )}
        </Card>
      </Col>
      <Col span={6}>
        {data && (
          <Card size="small" title={t('support.user')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label="UID">
                <Link to={`/users/${data.user.id}`}>{data.user.id}</Link>
              </Descriptions.Item>
              <Descriptions.Item label={t('support.verification')}>
                {t(`support.realname.${data.user.realnameStatus}`)}
              </Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 8 }}>
              {t('support.activity')}
            </Typography.Title>
            {data.user.activity.length === 0 ? (
              <Typography.Text type="secondary">{t('support.noActivity')}</Typography.Text>
            ) : (
              <List
                size="small"
                dataSource={data.user.activity}
                renderItem={(a) => (
                  <List.Item>
                    <Space direction="vertical" size={0}>
                      <span>
                        {t(`support.${a.kind}`)} {a.amount} {a.coin} <Tag>{a.status}</Tag>
                      </span>
                      <Typography.Text type="secondary">{formatTime(a.createdAt)}</Typography.Text>
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Card>
        )}
      </Col>
    </Row>
  );
}
