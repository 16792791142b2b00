// `npm run backup`: a consistent backup of the store, images and keys while the server runs.
import { backupCommand } from '../apps/server/src/backup-command.ts';

process.exitCode = await backupCommand(process.argv.slice(2));
