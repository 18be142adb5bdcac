// A VFS shim over SQLite's default VFS: contiguous writes to a WAL file are gathered and written at once.
// See include/CWALWrites.h for the contract. Everything else is passed through unchanged.
#include "CWALWrites.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

typedef struct GatheredFile {
    sqlite3_file base;
    sqlite3_file *real;           // the default VFS's file, in the same allocation just after this struct
    int isWal;
    int commitPending;            // the last write was a commit frame's header: its page ends the transaction
    unsigned char *buffer;
    sqlite3_int64 bufferOffset;   // the file offset of buffer[0]
    int bufferLength;
} GatheredFile;

// The unix VFS writes at most 128 KiB - 1 bytes in one call (`seekAndWriteFd` masks the length to 17
// bits): a run is written once it reaches 64 KiB, about 15 frames of 4 KiB pages.
enum { FRAME_HEADER = 24, MOST_GATHERED = 64 << 10 };

static sqlite3_vfs gatheringVfs;
static sqlite3_vfs *realVfs;
static const char *registeredName;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static sqlite3_file *real(sqlite3_file *file) { return ((GatheredFile *)file)->real; }

// The errno of this thread's last write, truncate, sync or shared-memory map SQLite's file failed with. SQLite keeps
// it with the file and, after a failed commit, gives it to no caller (`sqlite3_system_errno` said 0): a file past
// `ulimit -f` read "disk I/O error" instead of EFBIG's "File too large" (h3 07, session 29).
static __thread int failedErrno;

/// Notes why `code`, a call on `file` that failed on the disk, failed: the unix file's own record of it (a write
/// retried after a short one), else errno. `file` NULL: errno alone (a shared-memory map keeps no record).
static int noted(sqlite3_file *file, int code) {
    int primary = code & 0xFF;
    if (primary != SQLITE_IOERR && primary != SQLITE_FULL) return code;
    int number = errno;
    int kept = 0;
    if (file != NULL && file->pMethods->xFileControl(file, SQLITE_FCNTL_LAST_ERRNO, &kept) == SQLITE_OK && kept != 0) {
        number = kept;
    }
    failedErrno = number;
    return code;
}

int pws_take_failed_errno(void) {
    int number = failedErrno;
    failedErrno = 0;
    return number;
}

/// Writes what is gathered, if anything: one pwrite.
static int flush(GatheredFile *file) {
    if (file->bufferLength == 0) return SQLITE_OK;
    int length = file->bufferLength;
    file->bufferLength = 0;
    return noted(file->real, file->real->pMethods->xWrite(file->real, file->buffer, length, file->bufferOffset));
}

static int gatheredWrite(sqlite3_file *handle, const void *data, int amount, sqlite3_int64 offset) {
    GatheredFile *file = (GatheredFile *)handle;
    if (!file->isWal) return noted(file->real, file->real->pMethods->xWrite(file->real, data, amount, offset));
    // Only a write that continues the gathered run joins it.
    if (file->bufferLength > 0 && offset != file->bufferOffset + file->bufferLength) {
        int code = flush(file);
        if (code != SQLITE_OK) return code;
    }
    int endsCommit = file->commitPending;
    file->commitPending =
        amount == FRAME_HEADER && memcmp((const unsigned char *)data + 4, "\0\0\0\0", 4) != 0;
    if (file->bufferLength + amount > MOST_GATHERED) {
        // Full: what is gathered goes first, and a write too large to gather goes as it is.
        int code = flush(file);
        if (code != SQLITE_OK) return code;
        if (amount > MOST_GATHERED) {
            return noted(file->real, file->real->pMethods->xWrite(file->real, data, amount, offset));
        }
    }
    if (file->buffer == NULL) {
        file->buffer = sqlite3_malloc(MOST_GATHERED);
        if (file->buffer == NULL) {
            return noted(file->real, file->real->pMethods->xWrite(file->real, data, amount, offset));
        }
    }
    if (file->bufferLength == 0) file->bufferOffset = offset;
    memcpy(file->buffer + file->bufferLength, data, (size_t)amount);
    file->bufferLength += amount;
    // The commit frame's page: the transaction's frames go to the file before SQLite marks it committed.
    return endsCommit ? flush((GatheredFile *)handle) : SQLITE_OK;
}

/// Every other method writes what is gathered first, then is the real file's.
#define FLUSHED(handle)                                                        \
    do {                                                                       \
        int flushCode = flush((GatheredFile *)(handle));                       \
        if (flushCode != SQLITE_OK) return flushCode;                          \
    } while (0)

static int gatheredClose(sqlite3_file *handle) {
    GatheredFile *file = (GatheredFile *)handle;
    // Gathered frames at close belong to no commit (a commit's are written with its last frame).
    int flushed = flush(file);
    int code = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    sqlite3_free(file->buffer);
    file->buffer = NULL;
    return code != SQLITE_OK ? code : flushed;
}

static int gatheredRead(sqlite3_file *handle, void *data, int amount, sqlite3_int64 offset) {
    FLUSHED(handle);
    return real(handle)->pMethods->xRead(real(handle), data, amount, offset);
}

static int gatheredTruncate(sqlite3_file *handle, sqlite3_int64 size) {
    FLUSHED(handle);
    return noted(real(handle), real(handle)->pMethods->xTruncate(real(handle), size));
}

static int gatheredSync(sqlite3_file *handle, int flags) {
    FLUSHED(handle);
    return noted(real(handle), real(handle)->pMethods->xSync(real(handle), flags));
}

static int gatheredFileSize(sqlite3_file *handle, sqlite3_int64 *size) {
    FLUSHED(handle);
    return real(handle)->pMethods->xFileSize(real(handle), size);
}

static int gatheredLock(sqlite3_file *handle, int level) {
    FLUSHED(handle);
    return real(handle)->pMethods->xLock(real(handle), level);
}

static int gatheredUnlock(sqlite3_file *handle, int level) {
    FLUSHED(handle);
    return real(handle)->pMethods->xUnlock(real(handle), level);
}

static int gatheredCheckReservedLock(sqlite3_file *handle, int *out) {
    FLUSHED(handle);
    return real(handle)->pMethods->xCheckReservedLock(real(handle), out);
}

static int gatheredFileControl(sqlite3_file *handle, int op, void *argument) {
    FLUSHED(handle);
    return real(handle)->pMethods->xFileControl(real(handle), op, argument);
}

static int gatheredSectorSize(sqlite3_file *handle) { return real(handle)->pMethods->xSectorSize(real(handle)); }

static int gatheredDeviceCharacteristics(sqlite3_file *handle) {
    return real(handle)->pMethods->xDeviceCharacteristics(real(handle));
}

static int gatheredShmMap(sqlite3_file *handle, int region, int size, int extend, void volatile **out) {
    FLUSHED(handle);
    return noted(NULL, real(handle)->pMethods->xShmMap(real(handle), region, size, extend, out));
}

static int gatheredShmLock(sqlite3_file *handle, int offset, int count, int flags) {
    FLUSHED(handle);
    return real(handle)->pMethods->xShmLock(real(handle), offset, count, flags);
}

static void gatheredShmBarrier(sqlite3_file *handle) {
    // Called on the database's file, which gathers nothing (only its WAL file does).
    real(handle)->pMethods->xShmBarrier(real(handle));
}

static int gatheredShmUnmap(sqlite3_file *handle, int deleteFlag) {
    FLUSHED(handle);
    return real(handle)->pMethods->xShmUnmap(real(handle), deleteFlag);
}

static int gatheredFetch(sqlite3_file *handle, sqlite3_int64 offset, int amount, void **out) {
    FLUSHED(handle);
    return real(handle)->pMethods->xFetch(real(handle), offset, amount, out);
}

static int gatheredUnfetch(sqlite3_file *handle, sqlite3_int64 offset, void *page) {
    return real(handle)->pMethods->xUnfetch(real(handle), offset, page);
}

static const sqlite3_io_methods gatheredMethods = {
    3,
    gatheredClose,
    gatheredRead,
    gatheredWrite,
    gatheredTruncate,
    gatheredSync,
    gatheredFileSize,
    gatheredLock,
    gatheredUnlock,
    gatheredCheckReservedLock,
    gatheredFileControl,
    gatheredSectorSize,
    gatheredDeviceCharacteristics,
    gatheredShmMap,
    gatheredShmLock,
    gatheredShmBarrier,
    gatheredShmUnmap,
    gatheredFetch,
    gatheredUnfetch,
};

static int gatheredOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *handle, int flags, int *outFlags) {
    (void)vfs;
    GatheredFile *file = (GatheredFile *)handle;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    int code = realVfs->xOpen(realVfs, name, file->real, flags, outFlags);
    // With no methods set SQLite calls no xClose: the real file's own failure cleaned it up.
    if (file->real->pMethods == NULL) return code;
    // Every method is passed on, so the real file must have them all (the unix VFS's files do).
    if (file->real->pMethods->iVersion < 3) {
        file->real->pMethods->xClose(file->real);
        return SQLITE_CANTOPEN;
    }
    file->isWal = (flags & SQLITE_OPEN_WAL) != 0;
    handle->pMethods = &gatheredMethods;
    return code;
}

static int vfsDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVfs->xDelete(realVfs, name, syncDir);
}
static int vfsAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return realVfs->xAccess(realVfs, name, flags, out);
}
static int vfsFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVfs->xFullPathname(realVfs, name, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return realVfs->xDlOpen(realVfs, name);
}
static void vfsDlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    realVfs->xDlError(realVfs, size, out);
}
static void (*vfsDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    (void)vfs;
    return realVfs->xDlSym(realVfs, library, symbol);
}
static void vfsDlClose(sqlite3_vfs *vfs, void *library) {
    (void)vfs;
    realVfs->xDlClose(realVfs, library);
}
static int vfsRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVfs->xRandomness(realVfs, size, out);
}
static int vfsSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return realVfs->xSleep(realVfs, microseconds);
}
static int vfsCurrentTime(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return realVfs->xCurrentTime(realVfs, out);
}
static int vfsGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVfs->xGetLastError ? realVfs->xGetLastError(realVfs, size, out) : 0;
}
static int vfsCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return realVfs->xCurrentTimeInt64(realVfs, out);
}

static void registerOnce(void) {
    sqlite3_vfs *found = sqlite3_vfs_find(NULL);
    // The shim needs version-3 files (shared memory for WAL, xFetch) and version-2 VFS calls.
    if (found == NULL || found->iVersion < 2 || found->xCurrentTimeInt64 == NULL) return;
    realVfs = found;
    gatheringVfs.iVersion = 2;
    gatheringVfs.szOsFile = (int)sizeof(GatheredFile) + found->szOsFile;
    gatheringVfs.mxPathname = found->mxPathname;
    gatheringVfs.zName = "pws-wal-writes";
    gatheringVfs.xOpen = gatheredOpen;
    gatheringVfs.xDelete = vfsDelete;
    gatheringVfs.xAccess = vfsAccess;
    gatheringVfs.xFullPathname = vfsFullPathname;
    gatheringVfs.xDlOpen = vfsDlOpen;
    gatheringVfs.xDlError = vfsDlError;
    gatheringVfs.xDlSym = vfsDlSym;
    gatheringVfs.xDlClose = vfsDlClose;
    gatheringVfs.xRandomness = vfsRandomness;
    gatheringVfs.xSleep = vfsSleep;
    gatheringVfs.xCurrentTime = vfsCurrentTime;
    gatheringVfs.xGetLastError = vfsGetLastError;
    gatheringVfs.xCurrentTimeInt64 = vfsCurrentTimeInt64;
    if (sqlite3_vfs_register(&gatheringVfs, 0) == SQLITE_OK) registeredName = gatheringVfs.zName;
}

const char *pws_wal_writes_vfs(void) {
    pthread_once(&once, registerOnce);
    return registeredName;
}
