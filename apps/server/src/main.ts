// The server process's entry point: turns on Node.js's module compile cache, then runs the server.
// why: the process loads about 1,300 modules, most of them TypeScript that Node.js strips of its
// types and compiles at every start; the cache keeps both results on disk (keyed by each file's
// content and the Node.js version), and it must be on before the first of them loads, so the
// server's modules are imported from here rather than named on the command line. The cache
// lives in the system's temporary folder unless NODE_COMPILE_CACHE names another; without one
// (unwritable, or turned off with NODE_DISABLE_COMPILE_CACHE) the server starts as before.
import module from 'node:module';

module.enableCompileCache();
await import('./server.ts');
// why: written now, once the server listens, not only when the process exits: a process that is
// killed (or crashes) is the one whose next start most needs to be quick.
module.flushCompileCache();
