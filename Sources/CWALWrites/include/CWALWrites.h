#ifndef CWALWRITES_H
#define CWALWRITES_H

/// The name of a VFS (registered at the first call, never the default) that is SQLite's own "unix" VFS
/// with one change: a WAL file's writes that follow one another (a frame's 24-byte header, its page, the
/// next frame...) reach the kernel as one pwrite per transaction instead of two per frame. They are held in
/// the process only while SQLite writes a transaction's frames: written before the commit frame's write
/// returns (so before the wal-index shows the commit to any reader, in this process or another), and before
/// any other call on the file (read, sync, truncate, size, close, file control). What is on disk when a
/// commit returns, and what a kill leaves, are as with the plain VFS. NULL if it could not be registered.
const char *pws_wal_writes_vfs(void);

/// The errno a file of that VFS last failed with on this thread (a write, truncate, sync or shared-memory map SQLite
/// answered with SQLITE_IOERR or SQLITE_FULL), then 0 until the next failure; 0 when none failed.
int pws_take_failed_errno(void);

#endif
