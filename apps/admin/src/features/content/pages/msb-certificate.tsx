import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Image, Popconfirm, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchMsbCertificate } from '../api/fetch-msb-certificate.ts';
import { removeMsbCertificate } from '../api/remove-msb-certificate.ts';
import { uploadMsbCertificate } from '../api/upload-msb-certificate.ts';

const KEY = ['content-msb'];

/**
 * The MSB registration certificate shown on the customers' `/Index/msb`: its image, uploaded,
 * replaced or removed here (the server checks what the file is, re-encodes it and audits each
 * change); the page's text is the `msb` page in the list below.
 */
export function MsbCertificateCard({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const certificate = useQuery({ queryKey: KEY, queryFn: fetchMsbCertificate });
  const onDone = (text: string) => () => {
    void client.invalidateQueries({ queryKey: KEY });
    message.success(text);
  };
  const upload = useMutation({
    mutationFn: uploadMsbCertificate,
    onSuccess: onDone(t('content.msbUploaded')),
    onError: (error) => message.error(error.message),
  });
  const remove = useMutation({
    mutationFn: removeMsbCertificate,
    onSuccess: onDone(t('content.msbRemoved')),
    onError: (error) => message.error(error.message),
  });
  const imageUrl = certificate.data?.image_url ?? '';

  return (
    <Card
      size="small"
      title={t('content.msbTitle')}
      style={{ marginBottom: 16 }}
      loading={certificate.isLoading}
      data-testid="msb-card"
    >
      {certificate.error && <Alert type="warning" showIcon title={certificate.error.message} />}
      <Space align="start" wrap size="large">
        {imageUrl ? (
          <Image src={imageUrl} width={160} alt={t('content.msbTitle')} data-testid="msb-admin-image" />
        ) : (
          <Typography.Text type="secondary" data-testid="msb-admin-none">
            {t('content.msbNone')}
          </Typography.Text>
        )}
        <Space orientation="vertical">
          <Typography.Text type="secondary">{t('content.msbHelp')}</Typography.Text>
          {canWrite && (
            <Space wrap>
              <Upload
                accept="image/jpeg,image/png,image/webp,image/gif"
                showUploadList={false}
                disabled={upload.isPending}
                beforeUpload={(file) => {
                  upload.mutate(file);
                  // why: the mutation sends the file; antd's own request is not used.
                  return false;
                }}
              >
                <Button loading={upload.isPending} data-testid="msb-upload">
                  {imageUrl ? t('content.msbReplace') : t('content.msbUpload')}
                </Button>
              </Upload>
              {imageUrl && (
                <Popconfirm title={t('content.msbConfirmRemove')} onConfirm={() => remove.mutate()}>
                  <Button danger loading={remove.isPending} data-testid="msb-remove">
                    {t('content.msbRemove')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          )}
        </Space>
      </Space>
    </Card>
  );
}
