// The mining market's pages in one chunk: one entry in the first page's table of chunks instead
// of three (the first load is on a 150 KB budget). The profit curve stays a chunk of its own: it
// brings the chart library.
export { default as MachinePage } from './machine-page.tsx';
export { default as MarketPage } from './market-page.tsx';
export { default as ProfitListPage } from './profit-list-page.tsx';
