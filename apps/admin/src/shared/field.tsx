import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A caption over a control that is not a single input (a segmented choice, a range picker). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <legend style={{ padding: 0 }}>
        <Typography.Text type="secondary">{label}</Typography.Text>
      </legend>
      <div style={{ marginTop: 4 }}>{children}</div>
    </fieldset>
  );
}
