import { useTranslation } from 'react-i18next';
import { copyText } from '../copy-text.ts';
import { IconCopy } from './icons.tsx';
import { showToast } from './toast.ts';

/** Copies `text` and says whether it worked (spec §8). Named after what it copies. */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  async function handleCopy() {
    const isCopied = await copyText(text);
    showToast(t(isCopied ? 'common.copied' : 'common.copyFailed'), isCopied ? 'success' : 'fail');
  }
  return (
    <button
      type="button"
      className="icon-button copy-button"
      aria-label={label}
      onClick={handleCopy}
      data-testid={testId}
    >
      <IconCopy />
    </button>
  );
}
