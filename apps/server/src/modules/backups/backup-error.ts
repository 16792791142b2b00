/** A refusal a person can act on (the command line prints its message, nothing else). */
export class BackupError extends Error {}
