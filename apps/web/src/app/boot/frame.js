// Inlined right after the frame in index.html by scripts/boot-frame.ts: fills it, then starts the
// app (head.js).
window.__bourseBoot.fill();
window.__bourseBoot.start();
