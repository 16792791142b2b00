// `npm run build`: build the customer app whatever its state.
import { buildWebIfStale } from './web-build.mjs';

buildWebIfStale({ force: true });
