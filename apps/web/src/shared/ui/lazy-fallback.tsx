import DotLoading from 'antd-mobile/es/components/dot-loading';

/** Shown while a page's code is on its way. */
export function PageFallback() {
  return (
    <div className="page-fallback" aria-busy="true">
      <DotLoading color="currentColor" />
    </div>
  );
}
