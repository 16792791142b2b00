import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';

/** The one primary action of a form: full width, large, busy while the request runs. */
export function SubmitButton({
  isBusy,
  isDisabled = false,
  testId,
  className,
  children,
}: {
  isBusy: boolean;
  /** Not available right now (e.g. a prerequisite is missing), without the busy spinner. */
  isDisabled?: boolean;
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
      disabled={isBusy || isDisabled}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
