// The account services' lighter pages in one chunk: one entry in the first page's table of chunks
// instead of six. Verification and two-factor codes (image upload, QR code) stay chunks of their own.
export { default as AntiPhishingPage } from './anti-phishing-page.tsx';
export { default as BindMobilePage } from './bind-mobile-page.tsx';
export { default as LoginLogPage } from './login-log-page.tsx';
export { default as NoticeDetailPage } from './notice-detail-page.tsx';
export { default as NoticeListPage } from './notice-list-page.tsx';
export { default as SessionsPage } from './sessions-page.tsx';
