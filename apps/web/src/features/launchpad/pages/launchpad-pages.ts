// The launchpad's pages in one chunk: one entry in the first page's table of chunks instead of
// four (the first load is on a 150 KB budget).
export { default as AgentPage } from './agent-page.tsx';
export { default as ProjectDetailPage } from './project-detail-page.tsx';
export { default as ProjectListPage } from './project-list-page.tsx';
export { default as RecordListPage } from './record-list-page.tsx';
