import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';

/** The one primary action of a form: full width, large, busy while the request runs. */
export function SubmitButton({
  isBusy,
  testId,
  className,
  children,
}: {
  isBusy: boolean;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      block
      type="submit"
      color="primary"
      size="large"
      className={className}
      loading={isBusy}
      disabled={isBusy}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
