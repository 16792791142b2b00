import { toAtoms } from '@bourse/shared';
import { NetworkSettingsBody, type WalletCoinConfig, type WalletNetworkSettings } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { trimDecimal } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { fetchWalletConfig } from '../api/fetch-wallet-config.ts';
import { saveCoinSettings } from '../api/save-coin-settings.ts';
import { saveNetwork } from '../api/save-network.ts';

type CoinSwitches = Pick<
  WalletCoinConfig,
  'convertible' | 'depositEnabled' | 'withdrawEnabled' | 'displayDecimals'
>;

const QUERY_KEY = ['config', 'coins'];
const DECIMALS = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * Configuration: each coin's switches (convertible, deposits, withdrawals, decimals shown) and its
 * networks (deposit address, limits, fee) with an edit form. Every save is audited by the server.
 */
export function ConfigPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const client = useQueryClient();
  const canManage = session.can('config.manage');
  const [editing, setEditing] = useState<{ coin: string; network?: WalletNetworkSettings } | null>(null);
  const config = useQuery({
    queryKey: QUERY_KEY,
    queryFn: fetchWalletConfig,
  });
  const onSaved = () => {
    void client.invalidateQueries({ queryKey: QUERY_KEY });
    message.success(t('common.saved'));
  };
  const onError = (error: Error) => message.error(error.message);
  const saveCoin = useMutation({
    mutationFn: (input: { coin: string } & CoinSwitches) => {
      const { coin, ...switches } = input;
      return saveCoinSettings(coin, switches);
    },
    onSuccess: onSaved,
    onError,
  });
  const changeCoin = (row: WalletCoinConfig, change: Partial<CoinSwitches>) =>
    saveCoin.mutate({
      coin: row.coin,
      convertible: row.convertible,
      depositEnabled: row.depositEnabled,
      withdrawEnabled: row.withdrawEnabled,
      displayDecimals: row.displayDecimals,
      ...change,
    });

  if (config.isError) {
    return (
      <Alert
        type="error"
        title={t('config.loadFailed')}
        description={config.error.message}
        action={<Button onClick={() => void config.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  }

  const switchColumn = (key: 'convertible' | 'depositEnabled' | 'withdrawEnabled') => ({
    title: t(`config.${key}`),
    render: (_: unknown, row: WalletCoinConfig) => (
      <Switch
        aria-label={`${row.coin} ${t(`config.${key}`)}`}
        checked={row[key]}
        disabled={!canManage || saveCoin.isPending}
        onChange={(checked) => changeCoin(row, { [key]: checked })}
      />
    ),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('config.title')}>
        <Typography.Paragraph type="secondary">{t('config.help')}</Typography.Paragraph>
        {!canManage && <Alert type="info" title={t('config.readOnly')} />}
      </Card>
      <Table<WalletCoinConfig>
        rowKey="coin"
        loading={config.isLoading}
        dataSource={config.data?.coins ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        expandable={{
          expandedRowRender: (row) => (
            <NetworkTable
              coin={row}
              canManage={canManage}
              onEdit={(network) => setEditing({ coin: row.coin, network })}
              onAdd={() => setEditing({ coin: row.coin })}
            />
          ),
        }}
        columns={[
          { title: t('config.coin'), dataIndex: 'coin' },
          {
            title: t('config.displayDecimals'),
            render: (_, row) => (
              <Select
                aria-label={`${row.coin} ${t('config.displayDecimals')}`}
                value={row.displayDecimals}
                disabled={!canManage || saveCoin.isPending}
                style={{ width: 80 }}
                options={DECIMALS.map((d) => ({ value: d, label: String(d) }))}
                onChange={(displayDecimals: number) => changeCoin(row, { displayDecimals })}
              />
            ),
          },
          switchColumn('convertible'),
          switchColumn('depositEnabled'),
          switchColumn('withdrawEnabled'),
          { title: t('config.networks'), render: (_, row) => row.networks.length },
        ]}
      />
      {editing && (
        <NetworkForm
          coin={editing.coin}
          network={editing.network}
          addressFormats={config.data?.addressFormats ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onSaved();
          }}
        />
      )}
    </Space>
  );
}

function NetworkTable(props: {
  coin: WalletCoinConfig;
  canManage: boolean;
  onEdit: (network: WalletNetworkSettings) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const { coin, canManage } = props;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Table<WalletNetworkSettings>
        rowKey="network"
        size="small"
        pagination={false}
        dataSource={coin.networks}
        locale={{ emptyText: t('config.noNetworks') }}
        columns={[
          { title: t('config.network'), dataIndex: 'network' },
          { title: t('config.addressFormat'), dataIndex: 'addressFormat' },
          {
            title: t('config.depositAddress'),
            render: (_, row) =>
              row.depositAddress ? (
                <Typography.Text copyable code>
                  {row.depositAddress}
                </Typography.Text>
              ) : (
                <Typography.Text type="secondary">{t('config.noDeposits')}</Typography.Text>
              ),
          },
          { title: t('config.minDeposit'), dataIndex: 'minDeposit' },
          { title: t('config.minWithdraw'), dataIndex: 'minWithdraw' },
          {
            title: t('config.maxWithdraw'),
            render: (_, row) => (toAtoms(row.maxWithdraw) === 0n ? t('config.noMaximum') : row.maxWithdraw),
          },
          { title: t('config.withdrawFee'), dataIndex: 'withdrawFee' },
          {
            title: t('config.status'),
            render: (_, row) => (
              <Tag color={row.enabled ? 'green' : 'default'}>
                {row.enabled ? t('config.enabled') : t('config.disabled')}
              </Tag>
            ),
          },
          {
            title: '',
            render: (_, row) =>
              canManage && (
                <Button size="small" onClick={() => props.onEdit(row)}>
                  {t('config.edit')}
                </Button>
              ),
          },
        ]}
      />
      {canManage && (
        <Button size="small" onClick={props.onAdd}>
          {t('config.addNetwork', { coin: coin.coin })}
        </Button>
      )}
    </Space>
  );
}

function NetworkForm(props: {
  coin: string;
  network?: WalletNetworkSettings;
  addressFormats: string[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const { network, coin } = props;
  const form = useSchemaForm(NetworkSettingsBody, {
    defaultValues: network
      ? {
          ...network,
          minDeposit: trimDecimal(network.minDeposit),
          minWithdraw: trimDecimal(network.minWithdraw),
          maxWithdraw: trimDecimal(network.maxWithdraw),
          withdrawFee: trimDecimal(network.withdrawFee),
        }
      : {
          coin,
          network: '',
          addressFormat: undefined,
          depositAddress: '',
          minDeposit: '0',
          minWithdraw: '',
          maxWithdraw: '0',
          withdrawFee: '0',
          enabled: true,
          sort: 0,
        },
  });
  const save = useMutation({
    mutationFn: (values: NetworkSettingsBody) => saveNetwork(values),
    onSuccess: props.onSaved,
  });
  const { control } = form;
  const amountRule = t('config.amountRule');
  return (
    <Modal
      open
      title={
        network
          ? t('config.editNetwork', { coin, network: network.network })
          : t('config.addNetwork', { coin })
      }
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: save.isPending }}
      onCancel={props.onClose}
    >
      {save.isError && <Alert type="error" title={save.error.message} style={{ marginBottom: 16 }} />}
      <SchemaFormView id={formId} onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormField
          control={control}
          name="network"
          label={t('config.network')}
          normalize={(value) => value.toUpperCase()}
        >
          <Input disabled={Boolean(network)} placeholder="TRC20" />
        </FormField>
        <FormField control={control} name="addressFormat" label={t('config.addressFormat')}>
          <Select options={props.addressFormats.map((format) => ({ value: format, label: format }))} />
        </FormField>
        <FormField
          control={control}
          name="depositAddress"
          label={t('config.depositAddress')}
          extra={t('config.depositAddressHelp')}
        >
          <Input autoComplete="off" spellCheck={false} maxLength={128} />
        </FormField>
        <FormField
          control={control}
          name="minDeposit"
          label={t('config.minDeposit')}
          invalidText={amountRule}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField
          control={control}
          name="minWithdraw"
          label={t('config.minWithdraw')}
          invalidText={amountRule}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField
          control={control}
          name="maxWithdraw"
          label={t('config.maxWithdraw')}
          extra={t('config.maxWithdrawHelp')}
          invalidText={amountRule}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField
          control={control}
          name="withdrawFee"
          label={t('config.withdrawFee')}
          invalidText={amountRule}
        >
          <Input inputMode="decimal" />
        </FormField>
        <FormField control={control} name="sort" label={t('config.sort')}>
          <InputNumber min={0} max={10_000} precision={0} />
        </FormField>
        <FormField control={control} name="enabled" label={t('config.enabled')} valueProp="checked">
          <Switch />
        </FormField>
      </SchemaFormView>
    </Modal>
  );
}
