/** @module cli/admin-backup: `admin backup <dest> [--compact]` (issue 19, "Data"; docs/operations.md "Backup and restore"). */
import type { Command } from 'commander';
import { SECRETS_FILE } from '../server/auth/server-secrets.js';
import { loadConfig } from '../server/config.js';
import { BackupError, backupStore } from '../store/backup.js';
import { example, JSON_HELP, print } from './admin-output.js';

/**
 * Adds `backup` to `program`: a consistent hot copy of the LMDB store and the secrets file into an
 * empty directory usable as DATA_DIR. Failures are thrown (BackupError, ConfigError, lmdb-js
 * errors) for cli/admin-errors to report.
 */
export function addBackupCommand(program: Command): void {
  program
    .command('backup')
    .description(
      'copy the LMDB store (and secrets.json) into a new directory that can serve as DATA_DIR, while the server runs; STORE=redis is refused (use Redis persistence)',
    )
    .argument('<dest>', 'a directory that does not exist or is empty (created 0700)')
    .option('--compact', 'copy only the pages in use (slower, smaller file)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `${example('backup /var/backups/gov/2026-11-26 --compact --json')}\nRestore: stop the service, point DATA_DIR at the copy (or move it there), start (docs/operations.md "Backup and restore").`,
    )
    .action(async (dest: string, o: { compact?: boolean; json?: boolean }) => {
      // Refused before the rest of the configuration is read: none of a Redis deployment's settings matter here.
      if (process.env['STORE'] === 'redis') throw new BackupError('unsupported_backend');
      const report = await backupStore(loadConfig(), dest, { compact: !!o.compact, extraFiles: [SECRETS_FILE] });
      print(
        !!o.json,
        report,
        () =>
          `backed up ${report.files.join(', ')} to ${report.destination}: ${report.bytes} bytes in ${report.duration_ms} ms${report.compact ? ' (compacted)' : ''}; it holds every write acknowledged before ${report.started_at}`,
      );
    });
}
