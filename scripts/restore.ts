// `npm run restore -- <backup>`: verify, restore into DATA_DIR (and DATABASE_URL), check, report.
import { restoreCommand } from '../apps/server/src/backup-command.ts';

process.exitCode = await restoreCommand(process.argv.slice(2));
