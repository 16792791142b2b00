// `npm run build`: build the customer app and the back office whatever their state.
import { buildWebIfStale } from './web-build.mjs';

buildWebIfStale({ force: true });
